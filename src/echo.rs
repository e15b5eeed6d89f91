//! Quoting what a user typed in a message: short, and with the characters that would be
//! invisible or would break the line written out. Every module's messages use it, so it is on
//! the ground floor and uses nothing of the crate.

/// The most characters of the input that a message quotes; longer text is cut, with "…".
pub const MAX_ECHO_CHARS: usize = 40;

/// Quotes `text` for a message: at most [`MAX_ECHO_CHARS`] characters, then "…" when there is
/// more, with characters that would be invisible or would break the line written out: `\0`,
/// `\t`, `\n`, `\r`, and `<U+XXXX>` for other control characters, invisible formatting (a byte
/// order mark is `<U+FEFF>`) and spaces other than the plain one.
pub fn echo(text: &str) -> String {
    let mut shown = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX_ECHO_CHARS {
            shown.push('…');
            break;
        }
        match c {
            '\0' => shown.push_str("\\0"),
            '\t' => shown.push_str("\\t"),
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            c if is_invisible(c) => shown.push_str(&format!("<U+{:04X}>", c as u32)),
            c => shown.push(c),
        }
    }
    shown
}

/// Control characters, invisible formatting characters and spaces other than `' '`.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_is_short_and_visible() {
        assert_eq!(echo("abc"), "abc");
        assert_eq!(echo(&"9".repeat(40)), "9".repeat(40));
        assert_eq!(echo(&"9".repeat(41)), format!("{}…", "9".repeat(40)));
        assert_eq!(
            echo("a\0b\u{feff}\t\u{7}\u{202e}\u{a0} "),
            "a\\0b<U+FEFF>\\t<U+0007><U+202E><U+00A0> "
        );
        assert_eq!(echo(&"\0".repeat(100)), format!("{}…", "\\0".repeat(40)));
    }
}
