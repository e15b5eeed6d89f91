//! Aligned columns of text: the text exporter's tables and the answer stream's.

/// Lines of right-aligned columns (left-aligned where `left[i]`), separated by two spaces.
pub(super) fn columns(header: &[&str], left: &[bool], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    columns_at_least(header, &widths, left, rows)
}

/// [`columns`] with each column at least `min_widths[i]` wide.
pub(super) fn columns_at_least(
    header: &[&str],
    min_widths: &[usize],
    left: &[bool],
    rows: &[Vec<String>],
) -> String {
    let mut widths = min_widths.to_vec();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, ((cell, &width), &left)) in row.iter().zip(&widths).zip(left).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            pad(&mut line, cell, width, left);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Appends `cell` padded with spaces to `width` characters, on the right when `left` (format's
/// `{:>width$}` panics on widths past 65,535, which an imported count can reach).
pub(super) fn pad(out: &mut String, cell: &str, width: usize, left: bool) {
    let fill = width.saturating_sub(cell.chars().count());
    if left {
        out.push_str(cell);
    }
    out.extend(std::iter::repeat_n(' ', fill));
    if !left {
        out.push_str(cell);
    }
}
