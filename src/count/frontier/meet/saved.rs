//! Halves kept on disk, so that the pairs that share a half compute it once: one file a half,
//! named for the board, the half and the count type, written whole or not at all (a temporary
//! file renamed into place), and refused — never used, never changed — when it is not the
//! half its name says or its checksum does not hold.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::classes::{CutClasses, CutState};
use super::cut::CutWord;
use crate::count::frontier::counts::tally::Tally;
use crate::error::Error;

/// A count type a half is saved in: its bytes, little-endian.
pub(crate) trait SavedCount: Tally + Copy {
    const BYTES: usize;
    fn put(self, out: &mut Vec<u8>);
    fn take(bytes: &[u8]) -> Self;
}

impl SavedCount for u64 {
    const BYTES: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn take(bytes: &[u8]) -> Self {
        u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
    }
}

impl SavedCount for u128 {
    const BYTES: usize = 16;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn take(bytes: &[u8]) -> Self {
        u128::from_le_bytes(bytes.try_into().expect("16 bytes"))
    }
}

/// The first bytes of a saved half, with the format's version.
const MAGIC: &[u8; 8] = b"KNHALF01";

/// The file that holds the half named `name` in `dir`.
pub(super) fn half_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.half"))
}

/// Makes the directory of saved halves where it is missing, before any half is computed for
/// it: one that cannot be made or written is refused at once, not after hours of work.
pub(super) fn prepare(dir: &Path) -> Result<(), Error> {
    let refuse = |why: String| {
        Error::Unsupported(format!("the directory for halves {} {why}", dir.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| refuse(format!("cannot be made: {e}")))?;
    let probe = dir.join(format!(".probe.{}", std::process::id()));
    File::create(&probe).map_err(|e| refuse(format!("cannot be written: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A checksum of every 8 bytes written, so that a file cut short or changed is refused.
#[derive(Default)]
struct Checksum(u64);

impl Checksum {
    fn add(&mut self, bytes: &[u8]) {
        for word in bytes.chunks(8) {
            let mut padded = [0u8; 8];
            padded[..word.len()].copy_from_slice(word);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(padded))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

/// Writes `classes` as the half `name` into `dir`, whole or not at all.
pub(super) fn save<L: CutWord, T: SavedCount>(
    dir: &Path,
    name: &str,
    classes: &CutClasses<L, T>,
) -> Result<(), Error> {
    let path = half_path(dir, name);
    let temporary = dir.join(format!(".{name}.half.{}.part", std::process::id()));
    let failed = |e: std::io::Error| Error::SavedHalf {
        path: path.display().to_string(),
        why: format!("could not be written: {e}"),
    };
    let written =
        write_half(&temporary, name, classes).and_then(|()| std::fs::rename(&temporary, &path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(failed(e));
    }
    Ok(())
}

fn write_half<L: CutWord, T: SavedCount>(
    path: &Path,
    name: &str,
    classes: &CutClasses<L, T>,
) -> std::io::Result<()> {
    let file = File::create(path)?;
    let mut out = BufWriter::with_capacity(1 << 20, &file);
    let mut sum = Checksum::default();
    let mut put = |out: &mut BufWriter<&File>, bytes: &[u8]| -> std::io::Result<()> {
        sum.add(bytes);
        out.write_all(bytes)
    };
    let (cut, mirror) = classes.shape();
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&(name.len() as u64).to_le_bytes());
    header.extend_from_slice(name.as_bytes());
    header.resize(header.len() + padding(name.len()), 0);
    header.extend_from_slice(&(cut as u64).to_le_bytes());
    header.extend_from_slice(&(mirror.unwrap_or(0) as u64).to_le_bytes());
    header.extend_from_slice(&(T::BYTES as u64).to_le_bytes());
    put(&mut out, &header)?;
    let mut bytes = Vec::new();
    for (key, states) in classes.by_class() {
        bytes.clear();
        bytes.extend_from_slice(&key.to_le_bytes());
        bytes.extend_from_slice(&(states.len() as u64).to_le_bytes());
        for state in states {
            state.links.write(&mut bytes);
            state.count.put(&mut bytes);
        }
        put(&mut out, &bytes)?;
    }
    // The end: a class key no class has, then the checksum of all before it.
    put(&mut out, &u64::MAX.to_le_bytes())?;
    out.write_all(&sum.0.to_le_bytes())?;
    out.flush()?;
    drop(out);
    file.sync_all()
}

/// Reads the half `name` from `dir`: `None` when it was never saved.
pub(super) fn load<L: CutWord, T: SavedCount>(
    dir: &Path,
    name: &str,
) -> Result<Option<CutClasses<L, T>>, Error> {
    let path = half_path(dir, name);
    let refuse = |why: String| Error::SavedHalf {
        path: path.display().to_string(),
        why,
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(refuse(format!("cannot be read: {e}"))),
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(refuse("is not a file".to_string()));
    }
    let mut input = Input {
        reader: BufReader::with_capacity(1 << 20, file),
        sum: Checksum::default(),
    };
    let cut_short = |e: std::io::Error| refuse(format!("is cut short or unreadable ({e})"));
    let magic = input.bytes(MAGIC.len()).map_err(cut_short)?;
    if magic != MAGIC {
        return Err(refuse(
            "is not a half saved by this version of knights".to_string(),
        ));
    }
    let name_len = input.word().map_err(cut_short)?;
    if name_len != name.len() as u64 {
        return Err(refuse(format!("is not the half {name}")));
    }
    let saved_name = input
        .bytes(name.len() + padding(name.len()))
        .map_err(cut_short)?;
    let (cut, mirror, bytes) = (
        input.word().map_err(cut_short)?,
        input.word().map_err(cut_short)?,
        input.word().map_err(cut_short)?,
    );
    if saved_name[..name.len()] != *name.as_bytes()
        || bytes != T::BYTES as u64
        || cut == 0
        || cut as usize > L::FIELDS
    {
        return Err(refuse(format!("is not the half {name}")));
    }
    // The classes go into their blocks as they are read, so the half is held once; a file
    // whose checksum fails at the end is dropped whole (it was only read).
    let mirror = (mirror != 0).then_some(mirror as usize);
    let classes = std::iter::from_fn(|| read_class::<L, T>(&mut input).transpose());
    let classes = CutClasses::from_classes(cut as usize, mirror, classes).map_err(refuse)?;
    let expected = input.sum.0;
    let mut stored = [0u8; 8];
    input.reader.read_exact(&mut stored).map_err(cut_short)?;
    if u64::from_le_bytes(stored) != expected {
        return Err(refuse(
            "is damaged (its checksum does not hold)".to_string(),
        ));
    }
    let mut rest = [0u8; 1];
    if input.reader.read(&mut rest).map_err(cut_short)? != 0 {
        return Err(refuse("is damaged (bytes after its end)".to_string()));
    }
    Ok(Some(classes))
}

/// One class as saved: its key and its states.
type SavedClass<L, T> = (u64, Vec<CutState<L, T>>);

/// The next class of a saved half, `None` at its end, or why the file is refused.
fn read_class<L: CutWord, T: SavedCount>(
    input: &mut Input,
) -> Result<Option<SavedClass<L, T>>, String> {
    let cut_short = |e: std::io::Error| format!("is cut short or unreadable ({e})");
    let key = input.word().map_err(cut_short)?;
    if key == u64::MAX {
        return Ok(None);
    }
    let len = input.word().map_err(cut_short)? as usize;
    let record = L::BYTES + T::BYTES;
    let Some(size) = len.checked_mul(record).filter(|&s| s <= 1 << 40) else {
        return Err("is damaged (a class of impossible size)".to_string());
    };
    let raw = input.bytes(size).map_err(cut_short)?;
    let states = raw
        .chunks_exact(record)
        .map(|r| CutState {
            links: L::read(&r[..L::BYTES]),
            count: T::take(&r[L::BYTES..]),
        })
        .collect();
    Ok(Some((key, states)))
}

/// The zeros after a name of `len` bytes that bring it to a whole number of 8-byte words (the
/// checksum sums words).
fn padding(len: usize) -> usize {
    (8 - len % 8) % 8
}

/// A saved half being read, summed as it is read.
struct Input {
    reader: BufReader<File>,
    sum: Checksum,
}

impl Input {
    fn bytes(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        let mut bytes = vec![0u8; n];
        self.reader.read_exact(&mut bytes)?;
        self.sum.add(&bytes);
        Ok(bytes)
    }

    fn word(&mut self) -> std::io::Result<u64> {
        let bytes = self.bytes(8)?;
        Ok(u64::from_le_bytes(bytes.try_into().expect("8 bytes")))
    }
}
