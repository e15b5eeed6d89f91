//! Prototype: one layer's exchange over MPI (rsmpi, MPI_Alltoallv in bounded rounds).
//! Usage: mpirun -n P mpi_exchange LAYER_FILE [ROUND_RECORDS [spec|salted]]
use std::fs::File;
use std::os::unix::fs::FileExt;

use hashbrown::HashMap;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::*;
use mpi::Count;

const RECORD: u64 = 16;

/// MurmurHash3's 64-bit finalizer, as knights' `shard_of`.
#[inline(always)]
fn mix(key: u64) -> u64 {
    let mut h = key;
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    h
}

#[inline(always)]
fn owner(key: u64, p: u64) -> usize {
    (((mix(key) >> 32) * p) >> 32) as usize
}

/// Routing independent of the file's order (the file is written in `shard_of` order, so the
/// slice of rank i holds almost only keys that `owner` gives to i): the same formula on a
/// salted key, standing in for successors whose keys are unrelated to their sources'.
const SALT: u64 = 0x9E37_79B9_7F4A_7C15;
#[inline(always)]
fn owner_salted(key: u64, p: u64) -> usize {
    owner(key ^ SALT, p)
}

/// A second, different hash for the key checksum (so it is not the routing hash).
#[inline(always)]
fn key_check(key: u64) -> u64 {
    mix(key ^ 0x5851_F42D_4C95_7F2D).rotate_left(17)
}

fn main() {
    let t_start = std::time::Instant::now();
    let universe = mpi::initialize().expect("MPI init");
    let world = universe.world();
    let rank = world.rank() as usize;
    let size = world.size() as usize;
    let p = size as u64;

    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: mpi_exchange LAYER_FILE [ROUND_RECORDS]");
    let round: u64 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(1 << 21);
    // "spec": owner(key) as knights' shard_of; "salted": owner(key ^ SALT).
    let salted = match args.get(3).map(|s| s.as_str()).unwrap_or("spec") {
        "spec" => false,
        "salted" => true,
        other => panic!("routing must be spec or salted, not {other}"),
    };

    let file = File::open(path).expect("open layer");
    let bytes = file.metadata().unwrap().len();
    assert_eq!(bytes % RECORD, 0);
    let n = bytes / RECORD;
    let slice = |i: u64| (i * n / p, (i + 1) * n / p);
    let (lo, hi) = slice(rank as u64);
    // Every rank runs the same number of rounds (collectives): the largest slice decides.
    let max_slice = (0..p).map(|i| { let (a, b) = slice(i); b - a }).max().unwrap();
    let rounds = max_slice.div_ceil(round).max(1);

    if rank == 0 {
        println!(
            "library: {}",
            mpi::environment::library_version().unwrap_or_default().lines().next().unwrap_or("")
        );
        println!(
            "P={size} N={n} round={round} records/rank/round rounds={rounds} routing={} init_s={:.3}",
            if salted { "salted" } else { "spec" },
            t_start.elapsed().as_secs_f64()
        );
    }

    // Expected keys per owner ~ N/P; reserve so the table never rehashes.
    let mut map: HashMap<u64, u64> = HashMap::with_capacity((n / p + n / p / 100) as usize);

    let mut raw = vec![0u8; (round * RECORD) as usize];
    let mut dest = vec![0u32; round as usize];
    let mut send: Vec<u64> = vec![0; (round * 2) as usize];
    let mut recv: Vec<u64> = Vec::new();
    let mut send_counts = vec![0 as Count; size];
    let mut send_displs = vec![0 as Count; size];
    let mut recv_counts = vec![0 as Count; size];
    let mut recv_displs = vec![0 as Count; size];

    let mut read = 0u64;
    let mut received = 0u64;
    let mut received_from_others = 0u64;
    let mut sent_to_others = 0u64;
    let (mut t_read, mut t_bucket, mut t_comm, mut t_insert) = (0f64, 0f64, 0f64, 0f64);

    world.barrier();
    let t0 = mpi::time();
    for r in 0..rounds {
        let a = (lo + r * round).min(hi);
        let b = (a + round).min(hi);
        let m = (b - a) as usize;
        let t = mpi::time();
        let buf = &mut raw[..m * RECORD as usize];
        file.read_exact_at(buf, a * RECORD).expect("read");
        read += m as u64;
        let t1 = mpi::time();
        t_read += t1 - t;

        // Bucket by owner (counting sort) into the send buffer.
        let mut counts = vec![0usize; size];
        for i in 0..m {
            let key = u64::from_le_bytes(buf[i * 16..i * 16 + 8].try_into().unwrap());
            let d = if salted { owner_salted(key, p) } else { owner(key, p) };
            dest[i] = d as u32;
            counts[d] += 1;
        }
        let mut pos = vec![0usize; size];
        let mut acc = 0usize;
        for d in 0..size {
            pos[d] = acc;
            send_counts[d] = (counts[d] * 2) as Count;
            send_displs[d] = (acc * 2) as Count;
            acc += counts[d];
        }
        for i in 0..m {
            let key = u64::from_le_bytes(buf[i * 16..i * 16 + 8].try_into().unwrap());
            let cnt = u64::from_le_bytes(buf[i * 16 + 8..i * 16 + 16].try_into().unwrap());
            let d = dest[i] as usize;
            let j = pos[d];
            send[2 * j] = key;
            send[2 * j + 1] = cnt;
            pos[d] = j + 1;
        }
        sent_to_others += (m - counts[rank]) as u64;
        let t2 = mpi::time();
        t_bucket += t2 - t1;

        // Exchange: the counts first, then the records.
        world.all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let mut total = 0 as Count;
        for d in 0..size {
            recv_displs[d] = total;
            total += recv_counts[d];
        }
        recv.resize(total as usize, 0);
        {
            let sb = Partition::new(&send[..m * 2], &send_counts[..], &send_displs[..]);
            let mut rb = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            world.all_to_all_varcount_into(&sb, &mut rb);
        }
        let t3 = mpi::time();
        t_comm += t3 - t2;
        let got = total as u64 / 2;
        received += got;
        received_from_others += got - recv_counts[rank] as u64 / 2;

        // Reduce into the owner's table.
        for pair in recv.chunks_exact(2) {
            let e = map.entry(pair[0]).or_insert(0);
            *e = e.wrapping_add(pair[1]);
        }
        t_insert += mpi::time() - t3;
    }
    let t_rounds = mpi::time() - t0;

    let distinct = map.len() as u64;
    let mut count_sum = 0u64;
    let mut key_sum = 0u64;
    for (&k, &v) in map.iter() {
        count_sum = count_sum.wrapping_add(v);
        key_sum = key_sum.wrapping_add(key_check(k));
    }
    let local = [read, received, distinct, count_sum, key_sum, sent_to_others, received_from_others];
    let mut totals = [0u64; 7];
    let root = world.process_at_rank(0);
    if rank == 0 {
        root.reduce_into_root(&local[..], &mut totals[..], SystemOperation::sum());
    } else {
        root.reduce_into(&local[..], SystemOperation::sum());
    }
    let t_exchange = mpi::time() - t0;
    let mut t_max = 0f64;
    if rank == 0 {
        root.reduce_into_root(&t_exchange, &mut t_max, SystemOperation::max());
    } else {
        root.reduce_into(&t_exchange, SystemOperation::max());
    }

    println!(
        "rank {rank}/{size}: read={read} received={received} (from_others={received_from_others}) \
         sent_to_others={sent_to_others} distinct={distinct} count_sum={count_sum:#018x} key_sum={key_sum:#018x} \
         capacity={} | exchange_s={t_exchange:.3} rounds_s={t_rounds:.3} read_s={t_read:.3} bucket_s={t_bucket:.3} \
         comm_s={t_comm:.3} insert_s={t_insert:.3} since_start_s={:.3}",
        map.capacity(),
        t_start.elapsed().as_secs_f64()
    );
    if rank == 0 {
        println!(
            "TOTAL P={size}: read={} received={} distinct={} count_sum={:#018x} key_sum={:#018x} \
             sent_to_others={} payload_bytes={} exchange_s_max={t_max:.3} distinct_ok={}",
            totals[0],
            totals[1],
            totals[2],
            totals[3],
            totals[4],
            totals[5],
            totals[5] * RECORD,
            totals[2] == n
        );
    }
}
