//! A slow link between the browser and `mnk serve`, for the browser tests:
//! each chunk the browser sends is held for a random time before the
//! server gets it. Requests then overtake one another and answers come
//! late, as on a loaded machine (CI runs the browser tests beside every
//! other test). A page whose behaviour hangs on timing fails here, not
//! once in a while in CI.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The link's near end: point the browser at `addr`. It lives as long as
/// this value.
pub(crate) struct SlowLink {
    pub(crate) addr: SocketAddr,
    // Runs the relays; dropped last, outside any other runtime.
    _runtime: tokio::runtime::Runtime,
}

impl SlowLink {
    /// A link to `server` that holds each chunk sent to it for up to
    /// `max`. The delays come from `seed`, one stream per connection in
    /// the order they open.
    pub(crate) fn to(server: SocketAddr, max: Duration, seed: u64) -> SlowLink {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        runtime.spawn(async move {
            let mut seeds = Xoshiro256PlusPlus::seed_from_u64(seed);
            while let Ok((client, _)) = listener.accept().await {
                let Ok(upstream) = TcpStream::connect(server).await else {
                    continue;
                };
                tokio::spawn(relay(client, upstream, max, seeds.gen()));
            }
        });
        SlowLink {
            addr,
            _runtime: runtime,
        }
    }
}

/// Carries one connection: browser to server held back chunk by chunk,
/// server to browser at once (so server-sent events stream as they would).
/// Either side closing closes the other, so the server sees a browser
/// leave.
async fn relay(client: TcpStream, server: TcpStream, max: Duration, seed: u64) {
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    let up = async move {
        let mut delays = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut buf = vec![0; 64 * 1024];
        while let Ok(n @ 1..) = from_client.read(&mut buf).await {
            tokio::time::sleep(max.mul_f64(delays.gen::<f64>())).await;
            if to_server.write_all(&buf[..n]).await.is_err() {
                break;
            }
        }
        let _ = to_server.shutdown().await;
    };
    let down = async move {
        let _ = tokio::io::copy(&mut from_server, &mut to_client).await;
        let _ = to_client.shutdown().await;
    };
    tokio::join!(up, down);
}
