//! A socket client speaking the host protocol directly (no MCP server), for measuring the host
//! hop alone and for probing its authentication.

use anyhow::{Context, bail};
use claudezilla_protocol::codec::FrameCodec;
use claudezilla_protocol::envelope::HopTimes;
use claudezilla_protocol::framing::MAX_SOCKET_FRAME;
use claudezilla_protocol::handshake;
use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::{AgentId, Ask, ClientMessage, Command, HostMessage, Outcome};
use futures_util::{SinkExt, StreamExt};
use tokio::net::UnixStream;
use tokio_util::codec::Framed;

type Conn = Framed<UnixStream, FrameCodec<HostMessage, ClientMessage>>;

pub struct RawClient {
    conn: Conn,
    agent: AgentId,
    next_id: u64,
}

impl RawClient {
    /// Connects and says hello with `token`; returns the host's first answer as well.
    pub async fn hello(runtime: &RuntimeDir, token: &str) -> anyhow::Result<(Self, HostMessage)> {
        let agent = AgentId::new(rand_bytes(), std::process::id());
        Self::hello_as(runtime, token, agent).await
    }

    /// [`hello`](Self::hello) as a given agent id.
    pub async fn hello_as(
        runtime: &RuntimeDir,
        token: &str,
        agent: AgentId,
    ) -> anyhow::Result<(Self, HostMessage)> {
        let stream = UnixStream::connect(runtime.socket())
            .await
            .context("connect")?;
        Self::hello_on(stream, token, agent).await
    }

    async fn hello_on(
        stream: UnixStream,
        token: &str,
        agent: AgentId,
    ) -> anyhow::Result<(Self, HostMessage)> {
        let mut conn = Framed::new(stream, FrameCodec::new(MAX_SOCKET_FRAME, MAX_SOCKET_FRAME));
        conn.send(handshake::hello(
            token.into(),
            agent.clone(),
            "e2e raw client",
        ))
        .await?;
        let first = next(&mut conn)
            .await?
            .context("closed before answering hello")?;
        Ok((
            Self {
                conn,
                agent,
                next_id: 1,
            },
            first,
        ))
    }

    pub fn agent(&self) -> &AgentId {
        &self.agent
    }

    /// Connects as every client does (folder and peer checked, the real token) and expects a
    /// welcome.
    pub async fn connect(runtime: &RuntimeDir) -> anyhow::Result<Self> {
        let checked = handshake::connect(runtime)?;
        checked.stream.set_nonblocking(true)?;
        let stream = UnixStream::from_std(checked.stream)?;
        let agent = AgentId::new(rand_bytes(), std::process::id());
        let (client, first) = Self::hello_on(stream, &checked.token, agent).await?;
        handshake::welcomed(Some(first)).map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(client)
    }

    pub async fn call(&mut self, command: Command) -> anyhow::Result<Outcome> {
        Ok(self.exchange(command, false).await?.0)
    }

    /// [`call`](Self::call), traced: the answer and where its time went.
    pub async fn call_traced(
        &mut self,
        command: Command,
    ) -> anyhow::Result<(Outcome, Option<HopTimes>)> {
        self.exchange(command, true).await
    }

    async fn exchange(
        &mut self,
        command: Command,
        trace: bool,
    ) -> anyhow::Result<(Outcome, Option<HopTimes>)> {
        let id = self.next_id;
        self.next_id += 1;
        let request = Ask {
            trace,
            ..Ask::new(id, 10_000, command)
        };
        self.conn.send(ClientMessage::Request(request)).await?;
        let mut times = None;
        loop {
            match next(&mut self.conn)
                .await?
                .context("host closed the connection")?
            {
                HostMessage::Trace { id: of, times: t } if of == id => times = Some(t),
                HostMessage::Response(r) if r.id == id => return Ok((r.outcome, times)),
                HostMessage::Refused(e) => bail!("refused: {e}"),
                _ => {}
            }
        }
    }

    /// The next message, or `None` once the host has closed the connection.
    pub async fn next(&mut self) -> anyhow::Result<Option<HostMessage>> {
        next(&mut self.conn).await
    }
}

async fn next(conn: &mut Conn) -> anyhow::Result<Option<HostMessage>> {
    match conn.next().await {
        None => Ok(None),
        Some(Ok(Ok(msg))) => Ok(Some(msg)),
        Some(Ok(Err(bad))) => bail!("bad frame: {}", bad.error),
        Some(Err(_)) => Ok(None),
    }
}

fn rand_bytes() -> [u8; 16] {
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(1);
    std::array::from_fn(|_| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 64) as u8
    })
}

/// Sends one raw JSON frame as the first message (a hand-made hello) and returns the host's
/// first answer, `None` if it closed the connection without one.
pub async fn first_answer(runtime: &RuntimeDir, json: &str) -> anyhow::Result<Option<HostMessage>> {
    use tokio::io::AsyncWriteExt;
    let mut stream = UnixStream::connect(runtime.socket())
        .await
        .context("connect")?;
    stream.write_all(&(json.len() as u32).to_le_bytes()).await?;
    stream.write_all(json.as_bytes()).await?;
    let mut conn: Conn = Framed::new(stream, FrameCodec::new(MAX_SOCKET_FRAME, MAX_SOCKET_FRAME));
    next(&mut conn).await
}
