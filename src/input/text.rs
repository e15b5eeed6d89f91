//! Reading text as a stream, within bounds: a reader that checks UTF-8, counts lines, refuses a
//! line longer than [`MAX_LINE_BYTES`] and never holds more than one character.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

use super::InputError;

/// The longest line any input may have, in bytes (1 MiB), line break excluded.
///
/// A query needs about 30 bytes and a record of an export about 100 plus its count, so this
/// leaves room for counts of a million digits, and for a judge file of some 100,000 small
/// queries written on one line. The readers never hold a whole line: the bound only ends an
/// input without line breaks (an endless stream of spaces) with a clear error.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A stream of text read from bytes, one character at a time, within bounds.
///
/// It checks that the bytes are UTF-8 (naming the first bad byte), skips a byte order mark at
/// the very start, reads every line break (`\n`, `\r\n`, or a lone `\r` of old Mac files) as
/// one `\n`, counts lines, and refuses a line longer than [`MAX_LINE_BYTES`]. It holds one
/// buffer of [`BUFFER_BYTES`]: memory does not grow with the input.
///
/// [`TextReader::next_char`] serves readers of words; the [`Read`] implementation hands the same
/// checked text (with `\n` line breaks) to the CSV and JSON parsers. After a [`Read`] error,
/// [`TextReader::take_error`] gives the [`InputError`] behind it.
pub struct TextReader<R> {
    inner: R,
    /// Bytes read from `inner` and not yet decoded: `buffer[next..end]`.
    buffer: Box<[u8]>,
    next: usize,
    end: usize,
    /// Bytes of the input before `buffer[0]`.
    before: u64,
    /// The line being read (1-based): after a line break, the next one.
    line: Rc<Cell<usize>>,
    /// Bytes of the current line so far.
    line_bytes: usize,
    /// The last character was a `\r`: a `\n` right after it ends no other line.
    after_cr: bool,
    /// Nothing has been read yet (a byte order mark is skipped only there).
    at_start: bool,
    /// Bytes handed out since [`TextReader::start_record`], when records are bounded.
    record_bytes: Cell<Option<usize>>,
    /// Handed out through [`Read`]: inside a quoted CSV field (an odd number of quotes so
    /// far), and just after a line break outside quotes.
    in_quotes: bool,
    after_newline: bool,
    /// The error behind the last failed [`Read::read`].
    error: Option<InputError>,
    /// Bytes of a character not yet handed out by [`Read::read`].
    pending: [u8; 4],
    pending_start: usize,
    pending_end: usize,
}

/// The bytes a [`TextReader`] reads at a time.
pub const BUFFER_BYTES: usize = 1 << 16;

impl<R: Read> TextReader<R> {
    /// Reads text from `inner`.
    pub fn new(inner: R) -> Self {
        TextReader {
            inner,
            buffer: vec![0; BUFFER_BYTES].into_boxed_slice(),
            next: 0,
            end: 0,
            before: 0,
            line: Rc::new(Cell::new(1)),
            line_bytes: 0,
            after_cr: false,
            at_start: true,
            record_bytes: Cell::new(None),
            in_quotes: false,
            after_newline: true,
            error: None,
            pending: [0; 4],
            pending_start: 0,
            pending_end: 0,
        }
    }

    /// The line being read (1-based).
    pub fn line(&self) -> usize {
        self.line.get()
    }

    /// The line being read, shared: for a reader whose parser holds the `TextReader` (JSON).
    pub fn line_counter(&self) -> Rc<Cell<usize>> {
        Rc::clone(&self.line)
    }

    /// Starts a record: from now until the next call, at most [`MAX_LINE_BYTES`] more bytes
    /// may be read through [`Read`] (a quoted CSV field may hold line breaks; this bounds it).
    pub fn start_record(&self) {
        self.record_bytes.set(Some(0));
    }

    /// The error behind the last failed [`Read::read`], if it was the text's fault.
    pub fn take_error(&mut self) -> Option<InputError> {
        self.error.take()
    }

    /// The next character (every line break read as `\n`), or `None` at the end.
    #[inline]
    pub fn next_char(&mut self) -> Result<Option<char>, InputError> {
        // Most characters are ASCII inside a line: no decoding, no line break.
        if let Some(&byte) = self.buffer[..self.end].get(self.next)
            && byte.is_ascii()
            && byte != b'\n'
            && byte != b'\r'
            && self.line_bytes < MAX_LINE_BYTES
        {
            self.next += 1;
            self.line_bytes += 1;
            self.after_cr = false;
            self.at_start = false;
            return Ok(Some(char::from(byte)));
        }
        self.next_char_slowly()
    }

    fn next_char_slowly(&mut self) -> Result<Option<char>, InputError> {
        loop {
            let Some(c) = self.decode()? else {
                return Ok(None);
            };
            if std::mem::take(&mut self.at_start) && c == '\u{feff}' {
                continue;
            }
            match c {
                '\n' if self.after_cr => self.after_cr = false,
                '\n' | '\r' => {
                    self.after_cr = c == '\r';
                    self.line.set(self.line.get() + 1);
                    self.line_bytes = 0;
                    return Ok(Some('\n'));
                }
                c => {
                    self.after_cr = false;
                    self.line_bytes += c.len_utf8();
                    if self.line_bytes > MAX_LINE_BYTES {
                        return Err(InputError::at(
                            self.line(),
                            format!("the line is longer than {MAX_LINE_BYTES} bytes (1 MiB)"),
                        ));
                    }
                    return Ok(Some(c));
                }
            }
        }
    }

    /// The next byte, reading more when the buffer is used up; `None` at the end.
    fn next_byte(&mut self) -> Result<Option<u8>, InputError> {
        if self.next == self.end {
            self.before += self.end as u64;
            self.next = 0;
            self.end = loop {
                match self.inner.read(&mut self.buffer) {
                    Ok(read) => break read,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        return Err(InputError::at(
                            self.line(),
                            format!("cannot read the input: {e}"),
                        ));
                    }
                }
            };
            if self.end == 0 {
                return Ok(None);
            }
        }
        self.next += 1;
        Ok(Some(self.buffer[self.next - 1]))
    }

    /// Decodes one character.
    fn decode(&mut self) -> Result<Option<char>, InputError> {
        let Some(first) = self.next_byte()? else {
            return Ok(None);
        };
        let start = self.before + self.next as u64 - 1;
        if first.is_ascii() {
            return Ok(Some(char::from(first)));
        }
        let width = match first {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return Err(self.not_text(start)),
        };
        let mut bytes = [first, 0, 0, 0];
        for byte in &mut bytes[1..width] {
            match self.next_byte()? {
                Some(next) => *byte = next,
                None => return Err(self.not_text(start)),
            }
        }
        match std::str::from_utf8(&bytes[..width]) {
            Ok(text) => Ok(text.chars().next()),
            Err(_) => Err(self.not_text(start)),
        }
    }

    fn not_text(&self, offset: u64) -> InputError {
        InputError::at(
            self.line(),
            format!("the input is not text: invalid UTF-8 at byte {offset}"),
        )
    }
}

impl<R: Read> Read for TextReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let mut written = 0;
        while written < out.len() {
            if self.pending_start == self.pending_end {
                if self.error.is_some() {
                    break;
                }
                let c = match self.next_char() {
                    Ok(Some(c)) => c,
                    Ok(None) => break,
                    Err(e) => {
                        self.error = Some(e);
                        break;
                    }
                };
                // A blank line (a line break after a line break, outside quotes) is skipped
                // by the CSV reader: it is no part of a record, and a file of them is no
                // unending quoted field. Quotes are followed over the whole text, since the
                // CSV reader reads ahead of the record it starts.
                let blank = c == '\n' && self.after_newline && !self.in_quotes;
                self.after_newline = c == '\n' && !self.in_quotes;
                if c == '"' {
                    self.in_quotes = !self.in_quotes;
                }
                if let Some(bytes) = self.record_bytes.get()
                    && !blank
                {
                    let bytes = bytes + c.len_utf8();
                    self.record_bytes.set(Some(bytes));
                    if bytes > MAX_LINE_BYTES {
                        self.error = Some(InputError::at(
                            self.line(),
                            format!(
                                "the record is longer than {MAX_LINE_BYTES} bytes (1 MiB; a quoted field that does not end?)"
                            ),
                        ));
                        break;
                    }
                }
                self.pending_end = c.encode_utf8(&mut self.pending).len();
                self.pending_start = 0;
            }
            let take = (self.pending_end - self.pending_start).min(out.len() - written);
            out[written..written + take]
                .copy_from_slice(&self.pending[self.pending_start..self.pending_start + take]);
            self.pending_start += take;
            written += take;
        }
        match &self.error {
            Some(e) if written == 0 => {
                Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
            }
            _ => Ok(written),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(bytes: &[u8]) -> Result<(String, usize), String> {
        let mut reader = TextReader::new(bytes);
        let mut text = String::new();
        while let Some(c) = reader.next_char().map_err(|e| e.to_string())? {
            text.push(c);
        }
        Ok((text, reader.line()))
    }

    #[test]
    fn line_breaks_are_one_newline_and_counted() {
        assert_eq!(chars(b"a\rb\r\nc\nd").unwrap(), ("a\nb\nc\nd".into(), 4));
        assert_eq!(chars(b"\r\r\n\n").unwrap(), ("\n\n\n".into(), 4));
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_only_there() {
        assert_eq!(
            chars("\u{feff}1\u{feff}".as_bytes()).unwrap().0,
            "1\u{feff}"
        );
    }

    #[test]
    fn bad_utf8_is_named_by_its_byte() {
        assert_eq!(
            chars(b"ab\n\xffc").unwrap_err(),
            "line 2: the input is not text: invalid UTF-8 at byte 3"
        );
        assert!(chars(b"ab\xe2\x82").unwrap_err().contains("at byte 2"));
        assert!(chars(b"\xed\xa0\x80").unwrap_err().contains("at byte 0"));
        assert_eq!(chars("é€😀".as_bytes()).unwrap().0, "é€😀");
    }

    #[test]
    fn a_long_line_is_refused_but_many_lines_are_fine() {
        let long = vec![b' '; MAX_LINE_BYTES + 1];
        assert_eq!(
            chars(&long).unwrap_err(),
            format!("line 1: the line is longer than {MAX_LINE_BYTES} bytes (1 MiB)")
        );
        let mut fits = vec![b' '; MAX_LINE_BYTES];
        fits.extend_from_slice(b"\r\n");
        fits.extend_from_slice(&vec![b' '; MAX_LINE_BYTES]);
        assert_eq!(chars(&fits).unwrap().1, 2);
    }

    #[test]
    fn read_hands_out_the_same_text_one_byte_at_a_time() {
        let mut reader = TextReader::new("\u{feff}a\r€\r\n".as_bytes());
        let mut out = Vec::new();
        let mut byte = [0u8; 1];
        while reader.read(&mut byte).unwrap() == 1 {
            out.push(byte[0]);
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a\n€\n");
        let mut reader = TextReader::new(&b"ab\xff"[..]);
        let mut out = Vec::new();
        assert!(reader.read_to_end(&mut out).is_err());
        assert_eq!(out, b"ab");
        assert!(reader.take_error().unwrap().to_string().contains("byte 2"));
    }

    #[test]
    fn records_are_bounded_when_asked() {
        let text = "x\n".repeat(MAX_LINE_BYTES);
        let mut reader = TextReader::new(text.as_bytes());
        reader.start_record();
        assert!(reader.read_to_end(&mut Vec::new()).is_err());
        assert!(
            reader
                .take_error()
                .unwrap()
                .to_string()
                .contains("the record is longer")
        );
        let mut reader = TextReader::new(text.as_bytes());
        assert_eq!(reader.read_to_end(&mut Vec::new()).unwrap(), text.len());
    }
}
