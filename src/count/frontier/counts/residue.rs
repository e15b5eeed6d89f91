//! Arithmetic modulo primes: the primes a count is kept modulo, and the Chinese remainder
//! theorem that turns a count's residues back into the count.
//!
//! Counting is adding, and adding commutes with taking residues: a count kept modulo primes
//! whose product exceeds it is known exactly from its residues, however large the counts of
//! the states it was added up from. The number of primes is fixed before a pass, from the
//! bound the board's moves give (`crate::trust::tour_bound`), so no pass is ever redone.

use num_bigint::BigUint;

/// Every prime is below this: the sum of two residues stays below `2^63`, so adding never
/// overflows a `u64`.
const PRIME_LIMIT: u64 = 1 << 62;

/// The most primes a count is kept modulo (the largest number of lanes a pass can choose).
pub(crate) const MAX_PRIMES: usize = 256;

/// The `MAX_PRIMES` largest primes below `2^62`, the largest first (found when the crate is
/// compiled, so that reading one costs nothing).
pub(crate) const PRIMES: [u64; MAX_PRIMES] = {
    let mut primes = [0u64; MAX_PRIMES];
    let (mut found, mut candidate) = (0, PRIME_LIMIT - 1);
    while found < MAX_PRIMES {
        if is_prime(candidate) {
            primes[found] = candidate;
            found += 1;
        }
        candidate -= 2;
    }
    primes
};

/// The primes a count is kept modulo, the largest first.
pub(crate) fn primes() -> &'static [u64] {
    &PRIMES
}

/// `a + b` modulo `p`, for residues below `p < 2^62`.
#[inline(always)]
pub(crate) const fn add_mod(a: u64, b: u64, p: u64) -> u64 {
    let sum = a + b;
    if sum >= p { sum - p } else { sum }
}

/// `a · b` modulo `p`.
#[inline(always)]
pub(crate) const fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

const fn pow_mod(mut base: u64, mut exponent: u64, p: u64) -> u64 {
    let mut result = 1 % p;
    base %= p;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = mul_mod(result, base, p);
        }
        base = mul_mod(base, base, p);
        exponent >>= 1;
    }
    result
}

/// Miller–Rabin with the first twelve primes as bases, which decides primality of every `u64`
/// (Sorenson and Webster, 2015: the least strong pseudoprime to all of them exceeds `3.18e23`).
pub(crate) const fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    let mut i = 0;
    while i < BASES.len() {
        if n.is_multiple_of(BASES[i]) {
            return n == BASES[i];
        }
        i += 1;
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    let mut b = 0;
    'bases: while b < BASES.len() {
        let mut x = pow_mod(BASES[b], d, n);
        b += 1;
        if x == 1 || x == n - 1 {
            continue;
        }
        let mut round = 1;
        while round < s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
            round += 1;
        }
        return false;
    }
    true
}

/// The fewest of [`primes`] whose product exceeds `bound`, or `None` past [`MAX_PRIMES`].
pub(crate) fn primes_for(bound: &BigUint) -> Option<usize> {
    let mut product = BigUint::from(1u32);
    for (i, &p) in primes().iter().enumerate() {
        product *= p;
        if &product > bound {
            return Some(i + 1);
        }
    }
    None
}

/// The number below the product of the first `residues.len()` primes with these residues
/// (Garner's mixed-radix form of the Chinese remainder theorem).
pub(crate) fn combine(residues: &[u64]) -> BigUint {
    let primes = &primes()[..residues.len()];
    // x = d_0 + d_1 p_0 + d_2 p_0 p_1 + ..., each digit d_i below p_i.
    let mut digits: Vec<u64> = Vec::with_capacity(residues.len());
    for (i, (&r, &p)) in residues.iter().zip(primes).enumerate() {
        // What the digits so far give modulo p, and the product of the primes before p.
        let (mut value, mut radix) = (0u64, 1u64);
        for (&d, &q) in digits.iter().zip(&primes[..i]) {
            value = add_mod(value, mul_mod(d % p, radix, p), p);
            radix = mul_mod(radix, q % p, p);
        }
        let difference = add_mod(r % p, p - value, p);
        let inverse = pow_mod(radix, p - 2, p);
        digits.push(mul_mod(difference, inverse, p));
    }
    let mut x = BigUint::default();
    for (&d, &p) in digits.iter().zip(primes).rev() {
        x = x * p + d;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The primes are primes, below the limit, distinct, largest first; small numbers are
    /// classified as trial division does.
    #[test]
    fn primes_are_prime() {
        let primes = primes();
        assert_eq!(primes.len(), MAX_PRIMES);
        assert!(primes.windows(2).all(|w| w[0] > w[1]));
        assert!(primes[0] < PRIME_LIMIT);
        // 2^62 - 57 is the largest prime below 2^62.
        assert_eq!(primes[0], (1 << 62) - 57);
        for n in 0..2000u64 {
            let trial = n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
            assert_eq!(is_prime(n), trial, "{n}");
        }
        // Carmichael numbers and a strong pseudoprime to bases 2, 3, 5, 7.
        for n in [561u64, 1105, 1729, 3_215_031_751] {
            assert!(!is_prime(n), "{n}");
        }
    }

    /// Residues of a number below the product combine back to it, at every width.
    #[test]
    fn residues_combine_back() {
        let big: BigUint = "2050482252041396476123456789012345678901234567890123"
            .parse()
            .unwrap();
        for number in [
            BigUint::default(),
            BigUint::from(1u32),
            big.clone(),
            &big * &big,
        ] {
            let lanes = primes_for(&number).unwrap();
            for extra in 0..3 {
                let residues: Vec<u64> = primes()[..lanes + extra]
                    .iter()
                    .map(|&p| u64::try_from(&number % p).unwrap())
                    .collect();
                assert_eq!(combine(&residues), number);
            }
        }
        assert_eq!(primes_for(&BigUint::from(u64::MAX)), Some(2));
        assert_eq!(primes_for(&BigUint::from((1u64 << 62) - 58)), Some(1));
    }
}
