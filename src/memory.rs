//! Memory budgets: how much the engines may keep in their tables.

use std::fmt;
use std::str::FromStr;

/// A number of bytes that an engine's tables may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MemoryBudget(u64);

impl MemoryBudget {
    /// The default budget: 2 GiB, well inside what a laptop can spare.
    pub const DEFAULT: MemoryBudget = MemoryBudget(2 << 30);

    /// The share of this machine's memory that the command line gives the engines by default:
    /// three quarters of the physical memory (or of a smaller control-group limit), leaving room
    /// for the rest of the system; [`MemoryBudget::DEFAULT`] where the size cannot be read.
    pub fn for_this_machine() -> Self {
        match physical_memory() {
            Some(bytes) => MemoryBudget(bytes / 4 * 3),
            None => Self::DEFAULT,
        }
    }

    /// A budget of `bytes` bytes.
    pub const fn from_bytes(bytes: u64) -> Self {
        MemoryBudget(bytes)
    }

    /// The budget in bytes.
    pub const fn bytes(self) -> u64 {
        self.0
    }
}

/// Makes memory the engines free go back to the system at once, so that what the process holds
/// is what its tables hold. The frontier engine frees a layer shard by shard while it fills the
/// next; glibc's malloc keeps freed blocks of up to 32 MiB in its heaps once it has raised its
/// mmap threshold (which it does as soon as a large block is freed), and those heaps, fragmented,
/// are not given back: a fixed threshold of 256 KiB keeps every shard in a mapping of its own.
/// A no-op elsewhere. Call it once, before any computation.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only changes malloc's tuning; M_MMAP_THRESHOLD takes a size in bytes.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
        }
    }
}

/// The bytes this process holds in memory (its resident set, Linux's `/proc/self/status`);
/// `None` where that cannot be read.
pub fn resident_bytes() -> Option<u64> {
    kib_field("/proc/self/status", "VmRSS:")?.checked_mul(1024)
}

/// The value of the line of `path` that starts with `field`, in KiB (Linux's `/proc` files).
fn kib_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix(field))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The memory this process may use: the physical memory (Linux's `/proc/meminfo`), or the
/// control group's limit when that is smaller.
fn physical_memory() -> Option<u64> {
    let total_kib = kib_field("/proc/meminfo", "MemTotal:")?;
    let total = total_kib.checked_mul(1024)?;
    let limit = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|path| std::fs::read_to_string(path).ok())
    .filter_map(|text| text.trim().parse::<u64>().ok())
    .min();
    Some(limit.map_or(total, |limit| limit.min(total)))
}

impl Default for MemoryBudget {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A memory size that could not be understood (the text as given). The module's own error:
/// the library's [`crate::Error`] wraps it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// Not a size at all.
    #[error(
        "invalid memory size '{0}': use a number of bytes with an optional unit, e.g. 512M, 2G, 1.5GiB"
    )]
    Invalid(String),
    /// A size, but more bytes than a 64-bit number holds.
    #[error("memory size '{0}' is too large: the largest is 16777215T (16 EiB)")]
    TooLarge(String),
}

impl FromStr for MemoryBudget {
    type Err = SizeError;

    /// Parses `1073741824`, `512M`, `2G`, `1.5GiB`, `300MB`, `64k`: units are powers of 1024
    /// (`K`, `M`, `G`, `T`, with or without `B` / `iB`, any case).
    fn from_str(text: &str) -> Result<Self, SizeError> {
        let invalid = || SizeError::Invalid(crate::echo::echo(text));
        let trimmed = text.trim();
        let split = trimmed
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(trimmed.len());
        let (number, unit) = trimmed.split_at(split);
        let value: f64 = number.parse().map_err(|_| invalid())?;
        let unit = unit.trim().to_ascii_lowercase();
        let unit = unit
            .strip_suffix("ib")
            .or_else(|| unit.strip_suffix('b'))
            .unwrap_or(&unit);
        let scale: u64 = match unit {
            "" => 1,
            "k" => 1 << 10,
            "m" => 1 << 20,
            "g" => 1 << 30,
            "t" => 1 << 40,
            _ => return Err(invalid()),
        };
        let bytes = value * scale as f64;
        if bytes >= u64::MAX as f64 && value.is_finite() {
            return Err(SizeError::TooLarge(crate::echo::echo(text)));
        }
        if !bytes.is_finite() || bytes < 1.0 {
            return Err(invalid());
        }
        Ok(MemoryBudget(bytes as u64))
    }
}

impl fmt::Display for MemoryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", human_bytes(self.0))
    }
}

/// A number of bytes for people: GiB, MiB or KiB with one decimal, or bytes; never "0.0 GiB".
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    match bytes {
        1 => "1 byte".to_string(),
        _ => format!("{bytes} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units() {
        let parse = |s: &str| s.parse::<MemoryBudget>().map(MemoryBudget::bytes);
        assert_eq!(parse("1024").unwrap(), 1024);
        assert_eq!(parse("512M").unwrap(), 512 << 20);
        assert_eq!(parse("2g").unwrap(), 2 << 30);
        assert_eq!(parse("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse("300MB").unwrap(), 300 << 20);
        for shown in [
            MemoryBudget::from_bytes(3 << 29),
            MemoryBudget::from_bytes(700 << 20),
        ] {
            let again: MemoryBudget = shown.to_string().parse().unwrap();
            assert_eq!(again, shown);
        }
        assert_eq!(human_bytes(16 << 20), "16.0 MiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(100), "100 bytes");
        assert_eq!(human_bytes(1), "1 byte");
        assert!(MemoryBudget::for_this_machine().bytes() >= 1 << 20);
        for bad in ["", "G", "-1G", "2X", "0", "1e99T", "abc"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
