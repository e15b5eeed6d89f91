//! Prototype: one layer's exchange with timely-dataflow.
//!
//! Usage: timely_layer FILE BATCH [contig|stride] [timely args: -n P -p i -h hostfile]
//!   FILE   layer file: records of 16 bytes, little-endian u64 key then u64 count
//!   BATCH  records per exchange message: 0 = timely's default Exchange pact
//!          (CapacityContainerBuilder<Vec<_>>: 8 KiB = 512 records per message),
//!          B > 0 = the same Exchange pact (ExchangeCore) with a container builder of B records.
//!   contig (default): process i reads records [i*N/P, (i+1)*N/P); stride: records j, j % P == i.
//!
//! Each process reads records [i*N/P, (i+1)*N/P), sends each record to owner(key)
//! (same as knights' shard_of), and the owner reduces into a hashbrown map.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use hashbrown::HashMap;
use timely::communication::Pull;
use timely::dataflow::channels::Message;
use timely::dataflow::operators::generic::InputHandleCore;
use timely::container::{CapacityContainerBuilder, ContainerBuilder, LengthPreservingContainerBuilder, PushInto};
use timely::dataflow::channels::pact::{Exchange, ExchangeCore};
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

type Rec = (u64, u64);

#[inline]
fn mix(key: u64) -> u64 {
    let mut h = key;
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    h
}

/// Same as knights' `shard_of`.
#[inline]
fn owner(key: u64, peers: usize) -> usize {
    (((mix(key) >> 32) * peers as u64) >> 32) as usize
}

/// Records per exchanged container for the "big batch" builder.
static BATCH: AtomicUsize = AtomicUsize::new(65536);

/// A container builder like timely's CapacityContainerBuilder<Vec<Rec>>, but with a capacity of
/// BATCH records instead of 8 KiB.
#[derive(Default)]
struct BigBatch {
    current: Vec<Rec>,
    empty: Option<Vec<Rec>>,
    pending: VecDeque<Vec<Rec>>,
}

impl PushInto<Rec> for BigBatch {
    #[inline]
    fn push_into(&mut self, item: Rec) {
        if self.current.capacity() == 0 {
            let cap = BATCH.load(Ordering::Relaxed);
            self.current = self.empty.take().unwrap_or_default();
            self.current.clear();
            if self.current.capacity() < cap {
                self.current.reserve_exact(cap - self.current.capacity());
            }
        }
        self.current.push(item);
        if self.current.len() >= BATCH.load(Ordering::Relaxed) {
            self.pending.push_back(std::mem::take(&mut self.current));
        }
    }
}

impl ContainerBuilder for BigBatch {
    type Container = Vec<Rec>;
    fn extract(&mut self) -> Option<&mut Vec<Rec>> {
        if let Some(c) = self.pending.pop_front() {
            self.empty = Some(c);
            self.empty.as_mut()
        } else {
            None
        }
    }
    fn finish(&mut self) -> Option<&mut Vec<Rec>> {
        if !self.current.is_empty() {
            self.pending.push_back(std::mem::take(&mut self.current));
        }
        self.empty = self.pending.pop_front();
        self.empty.as_mut()
    }
}

impl LengthPreservingContainerBuilder for BigBatch {}

fn reduce<P: Pull<Message<u64, Vec<Rec>>>>(
    inp: &mut InputHandleCore<u64, Vec<Rec>, P>,
    map: &RefCell<HashMap<u64, u64>>,
    received: &RefCell<u64>,
) {
    let mut m = map.borrow_mut();
    let mut r = received.borrow_mut();
    inp.for_each(|_cap, data| {
        *r += data.len() as u64;
        for (k, c) in data.drain(..) {
            let e = m.entry(k).or_insert(0u64);
            *e = e.wrapping_add(c);
        }
    });
}

/// Reads this process's share of the layer file.
/// strided == false: records [i*N/P, (i+1)*N/P) (contiguous slice, as specified).
/// strided == true: records j with j % P == i (the whole file is read, 1/P kept).
fn read_share(path: &str, index: usize, peers: usize, strided: bool) -> Vec<Rec> {
    let mut f = File::open(path).expect("open layer file");
    let len = f.metadata().unwrap().len();
    assert!(len % 16 == 0, "file length not a multiple of 16");
    let n = (len / 16) as usize;
    let (lo, hi) = if strided { (0, n) } else { (index * n / peers, (index + 1) * n / peers) };
    f.seek(SeekFrom::Start(lo as u64 * 16)).unwrap();
    let mut out = Vec::with_capacity(if strided { n / peers + 1 } else { hi - lo });
    let mut buf = vec![0u8; 1 << 24];
    let mut left = (hi - lo) * 16;
    let mut j = lo;
    while left > 0 {
        let take = left.min(buf.len());
        f.read_exact(&mut buf[..take]).unwrap();
        for r in buf[..take].chunks_exact(16) {
            if !strided || j % peers == index {
                out.push((
                    u64::from_le_bytes(r[0..8].try_into().unwrap()),
                    u64::from_le_bytes(r[8..16].try_into().unwrap()),
                ));
            }
            j += 1;
        }
        left -= take;
    }
    out
}

fn main() {
    let process_start = Instant::now();
    let args: Vec<String> = std::env::args().collect();
    // Free arguments (not timely's options): FILE BATCH.
    let mut free = Vec::new();
    let mut skip = false;
    for a in args.iter().skip(1) {
        if skip {
            skip = false;
            continue;
        }
        match a.as_str() {
            "-n" | "-p" | "-h" | "-w" => skip = true,
            "-r" | "-z" => {}
            _ => free.push(a.clone()),
        }
    }
    let path = free.first().cloned().unwrap_or_else(|| "/work/proto/layer-7x8.bin".into());
    let batch: usize = free.get(1).map(|s| s.parse().unwrap()).unwrap_or(0);
    let strided = match free.get(2).map(|s| s.as_str()) {
        None | Some("contig") => false,
        Some("stride") => true,
        Some(other) => panic!("slicing must be contig or stride, not {other}"),
    };
    if batch > 0 {
        BATCH.store(batch, Ordering::Relaxed);
    }

    timely::execute_from_args(args.clone().into_iter(), move |worker| {
        let index = worker.index();
        let peers = worker.peers();
        let t_setup = process_start.elapsed();

        let map: Rc<RefCell<HashMap<u64, u64>>> = Rc::new(RefCell::new(HashMap::new()));
        let received = Rc::new(RefCell::new(0u64));
        let mut input: InputHandle<u64, CapacityContainerBuilder<Vec<Rec>>> = InputHandle::new();
        let probe = ProbeHandle::new();

        worker.dataflow::<u64, _, _>(|scope| {
            let stream = scope.input_from(&mut input);
            let map2 = map.clone();
            let recv2 = received.clone();
            // Two variants of the same Exchange pact: timely's default 8 KiB containers, or B records.
            let out = if batch == 0 {
                stream.unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(move |r: &Rec| owner(r.0, peers) as u64),
                    "Reduce",
                    move |_cap, _info| move |inp, _out| reduce(inp, &map2, &recv2),
                )
            } else {
                stream.unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    ExchangeCore::<BigBatch, _>::new_core(move |r: &Rec| owner(r.0, peers) as u64),
                    "Reduce",
                    move |_cap, _info| move |inp, _out| reduce(inp, &map2, &recv2),
                )
            };
            out.probe_with(&probe);
        });

        // Read this process's slice.
        let t0 = Instant::now();
        let records = read_share(&path, index, peers, strided);
        let t_read = t0.elapsed();
        let read = records.len() as u64;
        // Pre-size the owner's map for its expected share (N/P keys; the hash spreads keys evenly).
        // hashbrown keeps 1/8 slack, so a share slightly above N/P still fits without a resize.
        map.borrow_mut().reserve(read as usize);
        let sent_remote = records.iter().filter(|r| owner(r.0, peers) != index).count() as u64;

        // Barrier: epoch 0 closes once every worker has read its slice.
        input.advance_to(1);
        while probe.less_than(input.time()) {
            worker.step();
        }

        // Exchange phase: send everything at epoch 1, reduce at owners, wait until globally done.
        let t1 = Instant::now();
        const CHUNK: usize = 1 << 16;
        let mut buf: Vec<Rec> = Vec::with_capacity(CHUNK);
        for chunk in records.chunks(CHUNK) {
            buf.clear();
            buf.extend_from_slice(chunk);
            input.send_batch(&mut buf);
            worker.step();
        }
        drop(records);
        input.advance_to(2);
        while probe.less_than(input.time()) {
            worker.step();
        }
        let t_exchange = t1.elapsed();

        let m = map.borrow();
        let mut count_sum = 0u64;
        let mut key_sum = 0u64;
        for (&k, &c) in m.iter() {
            count_sum = count_sum.wrapping_add(c);
            key_sum = key_sum.wrapping_add(mix(k));
        }
        println!(
            "RESULT process={} peers={} batch={} slicing={} read={} received={} distinct={} count_sum={} key_checksum={} \
             sent_remote={} payload_bytes={} setup_s={:.3} read_s={:.3} exchange_s={:.3}",
            index,
            peers,
            if batch == 0 { 512 } else { batch },
            if strided { "stride" } else { "contig" },
            read,
            *received.borrow(),
            m.len(),
            count_sum,
            key_sum,
            sent_remote,
            sent_remote * 16,
            t_setup.as_secs_f64(),
            t_read.as_secs_f64(),
            t_exchange.as_secs_f64()
        );
    })
    .unwrap();
}
