//! A half's states at the cut, as the lookup join reads them: each state is reduced to what the
//! other half can see of it (the degrees of the cut squares, how its paths pair them, and how
//! many tour ends lie behind its paths), equal reductions are added up, and the reductions are
//! sorted into classes by degrees and ends, so that a join finds a class by lookup.

use hashbrown::HashMap;
use rayon::prelude::*;

use super::cut::{CutWord, MAX_CUT_SQUARES, code_degree};
use crate::count::frontier::pass::layer::{Layer, Shard};

/// Layer shards reduced at a time.
const CLASS_GROUP: usize = 16;
use crate::count::frontier::counts::tally::Tally;
use crate::count::frontier::sweep::Key;
use crate::count::frontier::sweep::{DANGLING, FIRST_LABEL, FULL};
use crate::count::frontier::window::state::{Codec, Word};

/// One half's state at the cut, reduced, as a class keeps it (the class says the degrees and
/// the tour ends).
#[derive(Clone, Copy, Debug)]
pub(super) struct CutState<L, T> {
    /// A field a cut square: for a square of degree 1, the cut square at the other end of its
    /// path, or the square itself when its path runs to a tour end inside the half.
    pub(super) links: L,
    pub(super) count: T,
}

/// A reduced state with its class, while the classes are sorted out.
#[derive(Clone, Copy, Debug)]
struct Reduced<L, T> {
    /// [`class_key`]: the degrees (two bits a cut square) and the tour ends behind the paths.
    class: u64,
    links: L,
    count: T,
}

impl<L: Copy, T> Reduced<L, T> {
    fn state(&self) -> CutState<L, T>
    where
        T: Copy,
    {
        CutState {
            links: self.links,
            count: self.count,
        }
    }
}

/// The class of a state: its cut degrees (two bits a cut square, square `i` at bits `2i`) and
/// its number of tour ends (0, 1 or 2). The ends sit at bits 32 and 33, the degrees of squares
/// past the 16th above them, so that a cut of at most 16 squares keeps the keys its saved
/// halves were written with.
pub(super) fn class_key(degrees: u64, ends: u32) -> u64 {
    (degrees & 0xFFFF_FFFF) | u64::from(ends) << 32 | (degrees >> 32) << 34
}

/// The degree of cut square `i` in a class key.
pub(super) fn degree_of(key: u64, i: usize) -> u32 {
    let bit = if i < 16 { 2 * i } else { 2 * i + 2 };
    ((key >> bit) & 3) as u32
}

/// The tour ends behind the paths of a class.
pub(super) fn ends_of(key: u64) -> u32 {
    ((key >> 32) & 3) as u32
}

/// A half's reduced states, sorted by class, with the place of each class. A half symmetric
/// left to right keeps each pair of mirror images once, as the smaller of the two with the
/// count of both (a state that is its own image keeps its own count). The states are kept in
/// blocks of whole classes, so that they were moved into them a block at a time.
pub(super) struct CutClasses<L, T> {
    blocks: Vec<Vec<CutState<L, T>>>,
    /// Each class's block and range in it.
    index: HashMap<u64, (usize, usize, usize)>,
    /// The cut's width, when the states are kept a pair of mirror images at a time.
    mirror: Option<usize>,
    cut: usize,
}

/// States a block holds, about (a block holds whole classes).
const BLOCK_STATES: usize = 1 << 20;

impl<L: CutWord, T: Tally + Copy> CutClasses<L, T> {
    /// The states kept of one class (empty when there are none): with mirror images kept a
    /// pair at a time, those pairs whose smaller image lies in the class, with the count of
    /// both.
    pub(super) fn class(&self, key: u64) -> &[CutState<L, T>] {
        self.class_states(key)
    }

    /// Whether the states are kept a pair of mirror images at a time.
    pub(super) fn folded(&self) -> bool {
        self.mirror.is_some()
    }

    /// The reduced states kept.
    pub(super) fn states(&self) -> u64 {
        self.blocks.iter().map(|block| block.len() as u64).sum()
    }

    /// The mirror image of a set of cut squares (one bit a square), or the set itself.
    pub(super) fn mirror_squares(&self, squares: u32) -> u32 {
        match self.mirror {
            Some(w) => mirror_cut_squares(squares, self.cut, w),
            None => squares,
        }
    }

    /// Every state of one class with its own count, each mirror image apart.
    pub(super) fn whole(&self, key: u64) -> std::borrow::Cow<'_, [CutState<L, T>]> {
        let Some(w) = self.mirror else {
            return std::borrow::Cow::Borrowed(self.class(key));
        };
        let halved = |state: &CutState<L, T>| {
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

impl<L: Copy, T: Copy> CutClasses<L, T> {
    /// Every class with its states, in the order of their keys (a saved half is written so).
    pub(super) fn by_class(&self) -> impl Iterator<Item = (u64, &[CutState<L, T>])> {
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
        classes: impl Iterator<Item = Result<(u64, Vec<CutState<L, T>>), E>>,
    ) -> Result<CutClasses<L, T>, E> {
        // Each block is allocated once, at its size: a block that grew by doubling would hold
        // up to twice its states for a moment, and a quarter more for good.
        let mut blocks: Vec<Vec<CutState<L, T>>> = vec![Vec::with_capacity(BLOCK_STATES)];
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

    fn class_states(&self, key: u64) -> &[CutState<L, T>] {
        self.index
            .get(&key)
            .map_or(&[], |&(block, from, to)| &self.blocks[block][from..to])
    }
}

/// A half as a join reads its bottoms: as kept, or as its mirror image (left to right, on a
/// cut of two rows of width `w`), mirrored a class at a time as the join asks for it, never
/// copied whole (a corner's half of 8x8 is 5.9 GB).
#[derive(Clone, Copy)]
pub(super) struct Bottoms<'a, L, T> {
    classes: &'a CutClasses<L, T>,
    mirror: Option<usize>,
}

impl<'a, L, T> From<&'a CutClasses<L, T>> for Bottoms<'a, L, T> {
    fn from(classes: &'a CutClasses<L, T>) -> Self {
        Bottoms {
            classes,
            mirror: None,
        }
    }
}

impl<'a, L: CutWord, T: Tally + Copy> Bottoms<'a, L, T> {
    /// The mirror image of `classes`, on a cut of two rows of width `w`.
    pub(super) fn mirrored(classes: &'a CutClasses<L, T>, w: usize) -> Self {
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
    pub(super) fn whole(&self, key: u64) -> std::borrow::Cow<'a, [CutState<L, T>]> {
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
pub(super) fn cut_classes<Wd: Word, K: Key, L: CutWord, T: Tally + Copy>(
    layer: Layer<T, K>,
    codec: &Codec,
    cut: usize,
    offset: usize,
    open: bool,
    mirror: Option<usize>,
) -> Option<CutClasses<L, T>> {
    // The reduced states go straight into one array sized for the whole layer (its pages are
    // only used as they are written), a few shards at a time, each shard freed once read: the
    // layer and the array are never both whole.
    let mut states: Vec<Reduced<L, T>> = Vec::with_capacity(layer.states() as usize);
    let mut layer = layer.into_iter();
    loop {
        let group: Vec<Shard<T, K>> = layer.by_ref().take(CLASS_GROUP).collect();
        if group.is_empty() {
            break;
        }
        let reduced: Vec<Vec<Reduced<L, T>>> = group
            .into_par_iter()
            .map(|shard| {
                shard
                    .into_iter()
                    .filter_map(|(key, count)| {
                        let (window, _) = codec.decode_key::<Wd, K>(key);
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
    let mut blocks: Vec<Vec<CutState<L, T>>> = Vec::new();
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
    class_key(degrees, ends_of(key))
}

/// The mirror image of the states of one class, worked out once for the class: where each of
/// its squares of degree 1 goes, and where the square its path runs to goes.
struct ClassMirror {
    /// The class's squares of degree 1 and their images.
    ends: Vec<(usize, usize)>,
    image: [u8; MAX_CUT_SQUARES],
}

impl ClassMirror {
    fn new(class: u64, cut: usize, w: usize) -> ClassMirror {
        let mut image = [0u8; MAX_CUT_SQUARES];
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
    fn links<L: CutWord>(&self, links: L) -> L {
        self.ends.iter().fold(L::default(), |image, &(i, j)| {
            image.put(j, usize::from(self.image[links.field(i)]))
        })
    }
}

/// The mirror image of a reduced state (of class `class`) on a cut of two rows of width `w`.
fn mirrored<L: CutWord, T>(
    class: u64,
    state: CutState<L, T>,
    cut: usize,
    w: usize,
) -> Reduced<L, T> {
    let image = |i: usize| mirror_square(i, w);
    let mut degrees = 0u64;
    let mut links = L::default();
    for i in 0..cut {
        let j = image(i);
        degrees |= u64::from(degree_of(class, i)) << (2 * j);
        if degree_of(class, i) == 1 {
            links = links.put(j, image(state.links.field(i)));
        }
    }
    Reduced {
        class: class_key(degrees, ends_of(class)),
        links,
        count: state.count,
    }
}

/// The class and links of one window at the cut, or `None` where the state cannot be part of
/// a tour: a square before the cut left unfinished, or more than two tour ends.
fn reduce<Wd: Word, L: CutWord>(
    window: Wd,
    cut: usize,
    offset: usize,
    open: bool,
) -> Option<(u64, L)> {
    // The square before the cut, when it is still in the window: done, or (open) a tour end.
    let leaving = if offset == 1 { window.code(0) } else { FULL };
    let leaving_label = match leaving {
        FULL => None,
        code if open && code >= FIRST_LABEL => Some(code),
        _ => return None,
    };
    let mut degrees = 0u64;
    let mut links = L::default();
    let mut ends = 0;
    // The cut square where each label was first seen: its path's other end.
    let mut first = [u8::MAX; 16];
    for i in 0..cut {
        let code = window.code(i + offset);
        degrees |= u64::from(code_degree(code)) << (2 * i);
        if code == DANGLING || Some(code) == leaving_label {
            ends += 1;
            links = links.put(i, i);
        } else if code >= FIRST_LABEL {
            let seen = &mut first[code as usize];
            if *seen == u8::MAX {
                *seen = i as u8;
            } else {
                let other = usize::from(*seen);
                links = links.put(i, other).put(other, i);
            }
        }
    }
    if ends > 2 || (!open && ends > 0) {
        return None;
    }
    Some((class_key(degrees, ends), links))
}
