//! Memory budgets: how much the engines may keep in their tables.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// A number of bytes that an engine's tables may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MemoryBudget(u64);

impl MemoryBudget {
    /// The default budget: 2 GiB, well inside what a laptop can spare.
    pub const DEFAULT: MemoryBudget = MemoryBudget(2 << 30);

    /// A budget of `bytes` bytes.
    pub const fn from_bytes(bytes: u64) -> Self {
        MemoryBudget(bytes)
    }

    /// The budget in bytes.
    pub const fn bytes(self) -> u64 {
        self.0
    }
}

impl Default for MemoryBudget {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl FromStr for MemoryBudget {
    type Err = Error;

    /// Parses `1073741824`, `512M`, `2G`, `1.5GiB`, `300MB`, `64k`: units are powers of 1024
    /// (`K`, `M`, `G`, `T`, with or without `B` / `iB`, any case).
    fn from_str(text: &str) -> Result<Self, Error> {
        let invalid = || Error::InvalidMemorySize(text.to_string());
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
        if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
            return Err(invalid());
        }
        Ok(MemoryBudget(bytes as u64))
    }
}

impl fmt::Display for MemoryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0 as f64;
        if self.0 >= 1 << 30 {
            write!(f, "{:.1} GiB", bytes / (1u64 << 30) as f64)
        } else if self.0 >= 1 << 20 {
            write!(f, "{:.1} MiB", bytes / (1u64 << 20) as f64)
        } else {
            write!(f, "{} bytes", self.0)
        }
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
        for bad in ["", "G", "-1G", "2X", "0", "1e99T", "abc"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
