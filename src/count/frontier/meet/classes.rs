//! A half's states at the cut, as the lookup join reads them: each state is reduced to what the
//! other half can see of it (the degrees of the cut squares, how its paths pair them, and how
//! many tour ends lie behind its paths), equal reductions are added up, and the reductions are
//! sorted into classes by degrees and ends, so that a join finds a class by lookup.

use hashbrown::HashMap;
use rayon::prelude::*;

use super::cut::code_degree;
use crate::count::frontier::pass::layer::{Layer, Shard};

/// Layer shards reduced at a time.
const CLASS_GROUP: usize = 16;
use crate::count::frontier::counts::tally::Tally;
use crate::count::frontier::sweep::{DANGLING, FIRST_LABEL, FULL};
use crate::count::frontier::window::state::{Codec, Word};

/// One half's state at the cut, reduced, as a class keeps it (the class says the degrees and
/// the tour ends).
#[derive(Clone, Copy, Debug)]
pub(super) struct CutState<T> {
    /// Four bits a cut square: for a square of degree 1, the cut square at the other end of its
    /// path, or the square itself when its path runs to a tour end inside the half.
    pub(super) links: u64,
    pub(super) count: T,
}

/// A reduced state with its class, while the classes are sorted out.
#[derive(Clone, Copy, Debug)]
struct Reduced<T> {
    /// [`class_key`]: the degrees (two bits a cut square) and the tour ends behind the paths.
    class: u64,
    links: u64,
    count: T,
}

impl<T> Reduced<T> {
    fn state(&self) -> CutState<T>
    where
        T: Copy,
    {
        CutState {
            links: self.links,
            count: self.count,
        }
    }
}

/// The class of a state: its cut degrees and its number of tour ends (0, 1 or 2).
pub(super) fn class_key(degrees: u32, ends: u32) -> u64 {
    u64::from(degrees) | u64::from(ends) << 32
}

/// The degree of cut square `i` in a class or degrees word.
pub(super) fn degree_of(degrees: u64, i: usize) -> u32 {
    ((degrees >> (2 * i)) & 3) as u32
}

/// A half's reduced states, sorted by class, with the place of each class. A half symmetric
/// left to right keeps each pair of mirror images once, as the smaller of the two with the
/// count of both (a state that is its own image keeps its own count). The states are kept in
/// blocks of whole classes, so that they were moved into them a block at a time.
pub(super) struct CutClasses<T> {
    blocks: Vec<Vec<CutState<T>>>,
    /// Each class's block and range in it.
    index: HashMap<u64, (usize, usize, usize)>,
    /// The cut's width, when the states are kept a pair of mirror images at a time.
    mirror: Option<usize>,
    cut: usize,
}

/// States a block holds, about (a block holds whole classes).
const BLOCK_STATES: usize = 1 << 20;

impl<T: Tally + Copy> CutClasses<T> {
    /// The states kept of one class (empty when there are none): with mirror images kept a
    /// pair at a time, those pairs whose smaller image lies in the class, with the count of
    /// both.
    pub(super) fn class(&self, key: u64) -> &[CutState<T>] {
        self.class_states(key)
    }

    /// Whether the states are kept a pair of mirror images at a time.
    pub(super) fn folded(&self) -> bool {
        self.mirror.is_some()
    }

    /// The mirror image of a set of cut squares (one bit a square), or the set itself.
    pub(super) fn mirror_squares(&self, squares: u32) -> u32 {
        match self.mirror {
            Some(w) => mirror_cut_squares(squares, self.cut, w),
            None => squares,
        }
    }

    /// Every state of one class with its own count, each mirror image apart.
    pub(super) fn whole(&self, key: u64) -> std::borrow::Cow<'_, [CutState<T>]> {
        let Some(w) = self.mirror else {
            return std::borrow::Cow::Borrowed(self.class(key));
        };
        let halved = |state: &CutState<T>| {
            let mut count = state.count;
            count.halve();
            CutState { count, ..*state }
        };
        let own = self.class(key);
        let image_key = mirrored_class(key, self.cut, w);
        let theirs = self.class(image_key);
        let mut states = Vec::with_capacity(own.len() + theirs.len());
        // A state is its own image only in a class that is its own image.
        let mirror = ClassMirror::new(key, self.cut, w);
        for state in own {
            if image_key == key && mirror.links(state.links) == state.links {
                states.push(*state);
            } else {
                states.push(halved(state));
            }
        }
        let mirror = ClassMirror::new(image_key, self.cut, w);
        for state in theirs {
            let links = mirror.links(state.links);
            if image_key != key || links != state.links {
                states.push(halved(&CutState { links, ..*state }));
            }
        }
        std::borrow::Cow::Owned(states)
    }

    /// The class of every state, each mirror image apart.
    pub(super) fn whole_keys(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self.index.keys().copied().collect();
        if let Some(w) = self.mirror {
            let images: Vec<u64> = keys
                .iter()
                .map(|&k| mirrored_class(k, self.cut, w))
                .collect();
            keys.extend(images);
            keys.sort_unstable();
            keys.dedup();
        }
        keys
    }
}

impl<T: Copy> CutClasses<T> {
    /// Every class with its states, in the order of their keys (a saved half is written so).
    pub(super) fn by_class(&self) -> impl Iterator<Item = (u64, &[CutState<T>])> {
        let mut keys: Vec<(&u64, &(usize, usize, usize))> = self.index.iter().collect();
        keys.sort_unstable_by_key(|(key, _)| **key);
        keys.into_iter()
            .map(|(&key, &(block, from, to))| (key, &self.blocks[block][from..to]))
    }

    /// The cut's squares, and its width when the states are kept a pair of mirror images at a
    /// time.
    pub(super) fn shape(&self) -> (usize, Option<usize>) {
        (self.cut, self.mirror)
    }

    /// Classes read back class by class (as [`CutClasses::by_class`] gives them), kept in
    /// blocks as [`cut_classes`] keeps them.
    pub(super) fn from_classes<E>(
        cut: usize,
        mirror: Option<usize>,
        classes: impl Iterator<Item = Result<(u64, Vec<CutState<T>>), E>>,
    ) -> Result<CutClasses<T>, E> {
        // Each block is allocated once, at its size: a block that grew by doubling would hold
        // up to twice its states for a moment, and a quarter more for good.
        let mut blocks: Vec<Vec<CutState<T>>> = vec![Vec::with_capacity(BLOCK_STATES)];
        let mut index = HashMap::new();
        for class in classes {
            let (key, states) = class?;
            let mut block = blocks.last_mut().expect("one block at least");
            if block.len() + states.len() > block.capacity() {
                if block.is_empty() {
                    block.reserve_exact(states.len());
                } else {
                    block.shrink_to_fit();
                    blocks.push(Vec::with_capacity(BLOCK_STATES.max(states.len())));
                    block = blocks.last_mut().expect("just pushed");
                }
            }
            let from = block.len();
            block.extend_from_slice(&states);
            let to = block.len();
            index.insert(key, (blocks.len() - 1, from, to));
        }
        if let Some(block) = blocks.last_mut() {
            block.shrink_to_fit();
        }
        Ok(CutClasses {
            blocks,
            index,
            mirror,
            cut,
        })
    }

    fn class_states(&self, key: u64) -> &[CutState<T>] {
        self.index
            .get(&key)
            .map_or(&[], |&(block, from, to)| &self.blocks[block][from..to])
    }
}

/// A half as a join reads its bottoms: as kept, or as its mirror image (left to right, on a
/// cut of two rows of width `w`), mirrored a class at a time as the join asks for it, never
/// copied whole (a corner's half of 8x8 is 5.9 GB).
#[derive(Clone, Copy)]
pub(super) struct Bottoms<'a, T> {
    classes: &'a CutClasses<T>,
    mirror: Option<usize>,
}

impl<'a, T> From<&'a CutClasses<T>> for Bottoms<'a, T> {
    fn from(classes: &'a CutClasses<T>) -> Self {
        Bottoms {
            classes,
            mirror: None,
        }
    }
}

impl<'a, T: Tally + Copy> Bottoms<'a, T> {
    /// The mirror image of `classes`, on a cut of two rows of width `w`.
    pub(super) fn mirrored(classes: &'a CutClasses<T>, w: usize) -> Self {
        Bottoms {
            classes,
            mirror: Some(w),
        }
    }

    /// Whether the half is its own mirror image, kept a pair of images at a time.
    pub(super) fn folded(&self) -> bool {
        self.classes.folded()
    }

    /// The class of every state.
    pub(super) fn keys(&self) -> Vec<u64> {
        let keys = self.classes.whole_keys();
        match self.mirror {
            None => keys,
            Some(w) => keys
                .into_iter()
                .map(|key| mirrored_class(key, self.classes.cut, w))
                .collect(),
        }
    }

    /// The number of states kept of class `key` (a measure of its work).
    pub(super) fn kept(&self, key: u64) -> usize {
        let key = match self.mirror {
            None => key,
            Some(w) => mirrored_class(key, self.classes.cut, w),
        };
        self.classes.class_states(key).len()
    }

    /// Every state of class `key` with its own count, each mirror image apart.
    pub(super) fn whole(&self, key: u64) -> std::borrow::Cow<'a, [CutState<T>]> {
        let Some(w) = self.mirror else {
            return self.classes.whole(key);
        };
        let cut = self.classes.cut;
        let image = mirrored_class(key, cut, w);
        let mirror = ClassMirror::new(image, cut, w);
        let states = self.classes.whole(image);
        std::borrow::Cow::Owned(
            states
                .iter()
                .map(|s| CutState {
                    links: mirror.links(s.links),
                    count: s.count,
                })
                .collect(),
        )
    }
}

/// The mirror image of a set of cut squares (one bit a square) on a cut of `cut` squares in
/// two rows of width `w`.
pub(super) fn mirror_cut_squares(squares: u32, cut: usize, w: usize) -> u32 {
    (0..cut)
        .filter(|&i| squares & (1 << i) != 0)
        .fold(0, |image, i| image | 1 << mirror_square(i, w))
}

/// Reads a half's last layer (the cut in window slots `offset..offset + cut`) into classes, on
/// every core, freeing the layer map by map. `open`: paths may run to tour ends (open tours);
/// else every state must be made of paths between cut squares (closed tours). `mirror`: the
/// layer's states were merged with their mirror images (the cut is two rows of this width): the
/// classes keep them so, a pair at a time (see [`CutClasses`]). `None` when a sum of equal
/// reductions overflows `T`.
pub(super) fn cut_classes<Wd: Word, T: Tally + Copy>(
    layer: Layer<T>,
    codec: &Codec,
    cut: usize,
    offset: usize,
    open: bool,
    mirror: Option<usize>,
) -> Option<CutClasses<T>> {
    // The reduced states go straight into one array sized for the whole layer (its pages are
    // only used as they are written), a few shards at a time, each shard freed once read: the
    // layer and the array are never both whole.
    let mut states: Vec<Reduced<T>> = Vec::with_capacity(layer.states() as usize);
    let mut layer = layer.into_iter();
    loop {
        let group: Vec<Shard<T>> = layer.by_ref().take(CLASS_GROUP).collect();
        if group.is_empty() {
            break;
        }
        let reduced: Vec<Vec<Reduced<T>>> = group
            .into_par_iter()
            .map(|shard| {
                shard
                    .into_iter()
                    .filter_map(|(key, count)| {
                        let (window, _) = codec.decode::<Wd>(key);
                        reduce(window, cut, offset, open).map(|(class, links)| Reduced {
                            class,
                            links,
                            count,
                        })
                    })
                    // A pair of mirror images is kept as the smaller, with the count of both.
                    .map(|state| {
                        match mirror.map(|w| mirrored(state.class, state.state(), cut, w)) {
                            Some(image)
                                if (image.class, image.links) < (state.class, state.links) =>
                            {
                                image
                            }
                            _ => state,
                        }
                    })
                    .collect()
            })
            .collect();
        for shard in reduced {
            states.extend(shard);
        }
    }
    states.par_sort_unstable_by_key(|s| (s.class, s.links));
    // Equal reductions are one state with the sum of their counts.
    let mut overflow = false;
    states.dedup_by(|next, kept| {
        let same = next.class == kept.class && next.links == kept.links;
        if same && !kept.count.add(&next.count) {
            overflow = true;
        }
        same
    });
    if overflow {
        return None;
    }
    // Into blocks of whole classes, from the end: each block's states are copied out and
    // the array shortened, so that both never hold the whole half. Classes are found through
    // the index alone, so the blocks may stay in the order they were cut.
    let mut blocks: Vec<Vec<CutState<T>>> = Vec::new();
    let mut index = HashMap::new();
    while !states.is_empty() {
        let mut from = states.len().saturating_sub(BLOCK_STATES);
        let class = states[from].class;
        while from > 0 && states[from - 1].class == class {
            from -= 1;
        }
        let tail = &states[from..];
        let mut first = 0;
        for i in 1..=tail.len() {
            if i == tail.len() || tail[i].class != tail[first].class {
                index.insert(tail[first].class, (blocks.len(), first, i));
                first = i;
            }
        }
        blocks.push(tail.iter().map(Reduced::state).collect());
        states.truncate(from);
        states.shrink_to_fit();
    }
    Some(CutClasses {
        blocks,
        index,
        mirror,
        cut,
    })
}

/// The mirror image of cut square `i` on a cut of two rows of width `w`.
fn mirror_square(i: usize, w: usize) -> usize {
    (i / w) * w + (w - 1 - i % w)
}

/// The mirror image of a class on a cut of `cut` squares in two rows of width `w`.
fn mirrored_class(key: u64, cut: usize, w: usize) -> u64 {
    let mut degrees = 0u64;
    for i in 0..cut {
        degrees |= u64::from(degree_of(key, i)) << (2 * mirror_square(i, w));
    }
    degrees | (key >> 32) << 32
}

/// The mirror image of the states of one class, worked out once for the class: where each of
/// its squares of degree 1 goes, and where the square its path runs to goes.
struct ClassMirror {
    /// The class's squares of degree 1 and their images.
    ends: Vec<(usize, usize)>,
    image: [u8; 16],
}

impl ClassMirror {
    fn new(class: u64, cut: usize, w: usize) -> ClassMirror {
        let mut image = [0u8; 16];
        for (i, slot) in image.iter_mut().enumerate().take(cut) {
            *slot = mirror_square(i, w) as u8;
        }
        let ends = (0..cut)
            .filter(|&i| degree_of(class, i) == 1)
            .map(|i| (i, mirror_square(i, w)))
            .collect();
        ClassMirror { ends, image }
    }

    /// The links of the mirror image of a state of the class.
    fn links(&self, links: u64) -> u64 {
        self.ends.iter().fold(0, |image, &(i, j)| {
            image | u64::from(self.image[((links >> (4 * i)) & 15) as usize]) << (4 * j)
        })
    }
}

/// The mirror image of a reduced state (of class `class`) on a cut of two rows of width `w`.
fn mirrored<T>(class: u64, state: CutState<T>, cut: usize, w: usize) -> Reduced<T> {
    let image = |i: usize| mirror_square(i, w);
    let ends = class >> 32;
    let mut degrees = 0u64;
    let mut links = 0u64;
    for i in 0..cut {
        let j = image(i);
        degrees |= u64::from(degree_of(class, i)) << (2 * j);
        if degree_of(class, i) == 1 {
            links |= (image(((state.links >> (4 * i)) & 15) as usize) as u64) << (4 * j);
        }
    }
    Reduced {
        class: degrees | ends << 32,
        links,
        count: state.count,
    }
}

/// The class and links of one window at the cut, or `None` where the state cannot be part of
/// a tour: a square before the cut left unfinished, or more than two tour ends.
fn reduce<Wd: Word>(window: Wd, cut: usize, offset: usize, open: bool) -> Option<(u64, u64)> {
    // The square before the cut, when it is still in the window: done, or (open) a tour end.
    let leaving = if offset == 1 { window.code(0) } else { FULL };
    let leaving_label = match leaving {
        FULL => None,
        code if open && code >= FIRST_LABEL => Some(code),
        _ => return None,
    };
    let mut degrees = 0u32;
    let mut links = 0u64;
    let mut ends = 0;
    // The cut square where each label was first seen: its path's other end.
    let mut first = [u8::MAX; 16];
    for i in 0..cut {
        let code = window.code(i + offset);
        degrees |= code_degree(code) << (2 * i);
        if code == DANGLING || Some(code) == leaving_label {
            ends += 1;
            links |= (i as u64) << (4 * i);
        } else if code >= FIRST_LABEL {
            let seen = &mut first[code as usize];
            if *seen == u8::MAX {
                *seen = i as u8;
            } else {
                let other = *seen as u64;
                links |= other << (4 * i) | (i as u64) << (4 * other);
            }
        }
    }
    if ends > 2 || (!open && ends > 0) {
        return None;
    }
    Some((class_key(degrees, ends), links))
}
