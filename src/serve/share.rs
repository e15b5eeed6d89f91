//! Each client's share of the connections (and of the tour searches: [`Shares`] counts
//! either): one address (an IPv6 client by its /64, which one
//! machine usually holds whole) may hold at most so many connections at once, long polls
//! included, so that no one client can take every connection the server has. A connection
//! past the share is answered 429 at once and closed.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::net::TcpStream;

use super::reply::ApiError;

/// A client, as far as the server can tell clients apart: its IPv4 address, or its IPv6
/// address's first 64 bits (an IPv4 address mapped into IPv6 is that IPv4 address).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    pub fn of(address: IpAddr) -> Client {
        match address {
            IpAddr::V4(v4) => Client(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => {
                    let prefix = u128::from(v6) & !(u128::from(u64::MAX));
                    Client(IpAddr::V6(Ipv6Addr::from(prefix)))
                }
            },
        }
    }
}

/// The connections each client holds.
#[derive(Debug)]
pub struct Shares {
    /// The most one client may hold.
    limit: usize,
    held: Mutex<HashMap<Client, usize>>,
}

/// One connection of a client's share, given back when dropped.
#[derive(Debug)]
pub struct Share {
    shares: Arc<Shares>,
    client: Client,
}

impl Shares {
    pub fn new(limit: usize) -> Arc<Shares> {
        Arc::new(Shares {
            limit: limit.max(1),
            held: Mutex::new(HashMap::new()),
        })
    }

    /// One more connection for the client at `address`, unless it holds its share already.
    pub fn take(self: &Arc<Self>, address: IpAddr) -> Option<Share> {
        self.take_for(Client::of(address))
    }

    /// One more of the shares for `client`, unless it holds its share already.
    pub fn take_for(self: &Arc<Self>, client: Client) -> Option<Share> {
        // Nothing panics while the lock is held: a poisoned map is still right.
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(client).or_insert(0);
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(Share {
            shares: Arc::clone(self),
            client,
        })
    }

    /// What a client past its share is told.
    pub fn refusal(&self) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this client already holds {} connections to this server, its share (knights serve --max-client-connections); close one, or try again in a few seconds",
                self.limit
            ),
        )
        .of_kind("connections")
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self
            .shares
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.client) {
            *count -= 1;
            // Clients come and go: the map holds only those with a connection open.
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// Refusals being written at once; past them, a connection is closed with no answer. Their
/// sockets are among the descriptors the server keeps beside its connections.
pub const REFUSING: usize = 32;

/// How long a refusal waits for the client to read it and close.
const LINGER: Duration = Duration::from_secs(2);

/// Writes `answer` on `socket` without reading the request, ends the server's side, and reads
/// what the client still sends until it closes (at most `LINGER`): a socket closed with unread
/// data is reset, and a reset can discard the answer before the client reads it.
pub async fn refuse(socket: TcpStream, answer: Arc<[u8]>) {
    let _ = tokio::time::timeout(LINGER, async {
        let mut written = 0;
        while written < answer.len() {
            socket.writable().await?;
            match socket.try_write(&answer[written..]) {
                Ok(n) => written += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        let mut socket = socket;
        std::future::poll_fn(|cx| {
            tokio::io::AsyncWrite::poll_shutdown(std::pin::Pin::new(&mut socket), cx)
        })
        .await?;
        let mut sink = [0; 4096];
        loop {
            socket.readable().await?;
            match socket.try_read(&mut sink) {
                Ok(0) => return Ok(()),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_at_most_its_share_and_gives_it_back() {
        let shares = Shares::new(2);
        let one: IpAddr = "127.0.0.2".parse().unwrap();
        let other: IpAddr = "127.0.0.1".parse().unwrap();
        let first = shares.take(one).unwrap();
        let _second = shares.take(one).unwrap();
        assert!(shares.take(one).is_none());
        // Another client has its own share.
        assert!(shares.take(other).is_some());
        drop(first);
        assert!(shares.take(one).is_some());
    }

    #[test]
    fn an_ipv6_client_is_its_slash_64_and_a_mapped_ipv4_its_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Client::of(a), Client::of(b));
        assert_ne!(Client::of(a), Client::of(c));
        let mapped: IpAddr = "::ffff:127.0.0.2".parse().unwrap();
        assert_eq!(Client::of(mapped), Client::of("127.0.0.2".parse().unwrap()));
    }
}
