//! The host in-process: a duplex pipe stands in for Firefox's end of native messaging (this
//! tests the host alone; the end-to-end suite runs it under a real Firefox).
//! They speak to it over its socket, or on Windows its named pipe (run under Wine by
//! `cargo xtask test` where Wine installs).

// Tests look at the files the host made; the rule is for the host's own code.
#![allow(clippy::disallowed_methods)]

use claudezilla_protocol::reply;
use std::time::Duration;

use claudezilla_host::{Config, run};
use claudezilla_protocol::args::MAX_TYPE_TEXT;
use claudezilla_protocol::codec::FrameCodec;
use claudezilla_protocol::envelope::{HopTimes, Tuning};
use claudezilla_protocol::framing::{MAX_SOCKET_FRAME, MAX_TO_EXTENSION};
use claudezilla_protocol::paths::RuntimeDir;
use claudezilla_protocol::reply::Reply;
use claudezilla_protocol::{
    AgentId, Ask, ClientMessage, Command, ErrorBody, ErrorCode, FromExtension, HostMessage,
    Request, Response, ToExtension, asks,
};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio::sync::oneshot;
use tokio_util::codec::Framed;

#[cfg(unix)]
type Stream = tokio::net::UnixStream;
#[cfg(windows)]
type Stream = tokio::net::windows::named_pipe::NamedPipeClient;
type Client = Framed<Stream, FrameCodec<HostMessage, ClientMessage>>;
type Extension = Framed<DuplexStream, FrameCodec<ToExtension, FromExtension>>;

struct Host {
    rt: RuntimeDir,
    _dir: tempfile::TempDir,
    ext: Extension,
    token: String,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), claudezilla_host::HostError>>,
}

async fn start(auth_timeout: Duration) -> Host {
    // A short folder: a socket's path is limited to about 100 bytes.
    let base = if cfg!(unix) {
        std::path::PathBuf::from("/tmp")
    } else {
        std::env::temp_dir()
    };
    let dir = tempfile::Builder::new()
        .prefix("czh")
        .tempdir_in(base)
        .unwrap();
    let rt = RuntimeDir::at(dir.path().join("rt"));
    let (host_side, ext_side) = tokio::io::duplex(4 * 1024 * 1024);
    let (host_in, host_out) = tokio::io::split(host_side);
    let (stop, stopped) = oneshot::channel::<()>();
    let config = Config {
        runtime: rt.clone(),
        auth_timeout,
        tuning: Tuning::default(),
    };
    let task = tokio::spawn(run(config, host_in, host_out, async {
        let _ = stopped.await;
    }));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !(listening(&rt) && rt.token().exists()) {
        assert!(tokio::time::Instant::now() < deadline, "host did not start");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let token = rt.read_token().unwrap();
    let ext = Framed::new(
        ext_side,
        FrameCodec::new(MAX_TO_EXTENSION, MAX_SOCKET_FRAME),
    );
    Host {
        rt,
        _dir: dir,
        ext,
        token,
        stop: Some(stop),
        task,
    }
}

fn agent(n: u8) -> AgentId {
    AgentId::new([n; 16], n as u32)
}

/// Whether a host's endpoint is in the folder: its socket, or the file naming its pipe.
fn listening(rt: &RuntimeDir) -> bool {
    if cfg!(windows) {
        rt.pipe_file().exists()
    } else {
        rt.socket().exists()
    }
}

/// A raw connection, without any of the clients' checks (the host's own checks are tested).
#[cfg(unix)]
async fn open(rt: &RuntimeDir) -> Stream {
    Stream::connect(rt.socket()).await.unwrap()
}

/// A raw connection; every instance may be taken for a moment between two accepts.
#[cfg(windows)]
async fn open(rt: &RuntimeDir) -> Stream {
    use tokio::net::windows::named_pipe::ClientOptions;
    const BUSY: i32 = windows_sys::Win32::Foundation::ERROR_PIPE_BUSY as i32;
    let name = rt.read_pipe_name().unwrap();
    for _ in 0..500 {
        match ClientOptions::new().open(name.as_str()) {
            Err(e) if e.raw_os_error() == Some(BUSY) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            opened => return opened.unwrap(),
        }
    }
    panic!("{name} stayed busy for 5 s")
}

async fn connect(host: &Host) -> Client {
    let stream = open(&host.rt).await;
    Framed::new(stream, FrameCodec::new(MAX_SOCKET_FRAME, MAX_SOCKET_FRAME))
}

async fn hello(host: &Host, n: u8) -> Client {
    let mut c = connect(host).await;
    c.send(ClientMessage::Hello {
        token: host.token.clone(),
        agent_id: agent(n),
        client: "test".into(),
    })
    .await
    .unwrap();
    match next(&mut c).await {
        HostMessage::Welcome { host_version, .. } => {
            assert_eq!(host_version, claudezilla_protocol::VERSION)
        }
        other => panic!("expected welcome, got {other:?}"),
    }
    c
}

async fn next(c: &mut Client) -> HostMessage {
    tokio::time::timeout(Duration::from_secs(5), c.next())
        .await
        .expect("no message within 5 s")
        .expect("connection closed")
        .expect("stream error")
        .expect("bad frame")
}

/// The next message must be the error answer to request `id`.
async fn error_for(c: &mut Client, id: u64) -> ErrorBody {
    match next(c).await {
        HostMessage::Response(Response {
            id: got,
            outcome: Err(e),
        }) if got == id => e,
        other => panic!("expected the error answer to {id}, got {other:?}"),
    }
}

/// Nothing reaches the extension within 200 ms.
async fn extension_hears_nothing(host: &mut Host) {
    assert!(
        tokio::time::timeout(Duration::from_millis(200), host.ext.next())
            .await
            .is_err()
    );
}

async fn ext_next(host: &mut Host) -> ToExtension {
    tokio::time::timeout(Duration::from_secs(5), host.ext.next())
        .await
        .expect("nothing reached the extension within 5 s")
        .unwrap()
        .unwrap()
        .unwrap()
}

async fn closed(c: &mut Client) -> bool {
    matches!(
        tokio::time::timeout(Duration::from_secs(5), c.next()).await,
        Ok(None | Some(Err(_)))
    )
}

fn request(id: u64, command: Command) -> ClientMessage {
    ClientMessage::Request(Ask::new(id, 5_000, command))
}

async fn expect_refused(c: &mut Client, code: ErrorCode) {
    match next(c).await {
        HostMessage::Refused(e) => assert_eq!(e.code, code, "{e}"),
        other => panic!("expected refusal, got {other:?}"),
    }
    assert!(closed(c).await, "connection left open after refusal");
}

#[cfg(unix)]
#[tokio::test]
async fn files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let host = start(Duration::from_secs(5)).await;
    for path in [host.rt.socket(), host.rt.token()] {
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", path.display());
    }
    let dir_mode = std::fs::metadata(host.rt.path())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);
    assert_eq!(host.token.len(), 64);
}

#[tokio::test]
async fn right_token_is_welcomed_and_requests_reach_the_extension() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    c.send(request(77, Command::Ping)).await.unwrap();
    let ToExtension::Request(req) = ext_next(&mut host).await else {
        panic!("not a request")
    };
    assert_eq!(req.command, Command::Ping);
    assert_eq!(req.agent_id, agent(1));
    pong_as(&mut host, req.id, "x").await;
    match next(&mut c).await {
        HostMessage::Response(r) => {
            assert_eq!(r.id, 77, "the client's own id comes back");
            assert_eq!(
                r.outcome,
                Ok(Reply::Pong(reply::Pong {
                    version: "x".into()
                }))
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_traced_request_hears_where_its_time_went_before_its_answer() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    let ClientMessage::Request(traced) = request(78, Command::Ping) else {
        unreachable!()
    };
    c.send(ClientMessage::Request(Ask {
        trace: true,
        ..traced
    }))
    .await
    .unwrap();
    let ToExtension::Request(req) = ext_next(&mut host).await else {
        panic!("not a request")
    };
    assert!(req.trace, "the flag reaches the extension");
    tokio::time::sleep(Duration::from_millis(5)).await;
    let times = HopTimes {
        native_us: 0,
        background_us: 900,
        content_us: 500,
        page_us: 200,
        load_us: 0,
        startup_us: 0,
    };
    host.ext
        .send(FromExtension::Trace { id: req.id, times })
        .await
        .unwrap();
    ext_pong(&mut host, req.id).await;
    match next(&mut c).await {
        HostMessage::Trace { id, times: got } => {
            assert_eq!(id, 78);
            assert_eq!(got.background_us, 900);
            assert!(
                got.native_us >= 5_000,
                "the host times the round trip: {got:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(next(&mut c).await, HostMessage::Response(r) if r.id == 78));
}

#[tokio::test]
async fn wrong_token_is_refused_and_closed() {
    let host = start(Duration::from_secs(5)).await;
    let mut c = connect(&host).await;
    let wrong = "0".repeat(64);
    c.send(ClientMessage::Hello {
        token: wrong,
        agent_id: agent(1),
        client: "t".into(),
    })
    .await
    .unwrap();
    expect_refused(&mut c, ErrorCode::AuthFailed).await;
}

#[tokio::test]
async fn missing_token_is_refused_and_closed() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = connect(&host).await;
    c.send(request(1, Command::GetTabs)).await.unwrap();
    expect_refused(&mut c, ErrorCode::AuthFailed).await;
    // Nothing from an unauthenticated client reached the extension.
    extension_hears_nothing(&mut host).await;
}

#[tokio::test]
async fn late_token_is_refused_and_closed() {
    let host = start(Duration::from_millis(200)).await;
    let mut c = connect(&host).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let _ = c
        .send(ClientMessage::Hello {
            token: host.token.clone(),
            agent_id: agent(1),
            client: "t".into(),
        })
        .await;
    expect_refused(&mut c, ErrorCode::AuthFailed).await;
}

#[tokio::test]
async fn answers_reach_only_the_client_that_asked() {
    let (mut host, mut a, mut b) = two_agents().await;
    // Both clients use the same request id; the host must keep them apart.
    a.send(request(5, Command::GetTabs)).await.unwrap();
    b.send(request(5, Command::Diagnose)).await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let ToExtension::Request(req) = ext_next(&mut host).await else {
            panic!()
        };
        ids.push((req.id, req.agent_id));
    }
    assert_ne!(ids[0].0, ids[1].0, "host ids must be unique");
    // Answer in reverse order, each with the agent's name in it.
    for (id, agent) in ids.iter().rev() {
        let outcome = Ok(Reply::Pong(reply::Pong {
            version: agent.to_string(),
        }));
        host.ext
            .send(FromExtension::Response(Response { id: *id, outcome }))
            .await
            .unwrap();
    }
    for (client, n) in [(&mut a, 1), (&mut b, 2)] {
        match next(client).await {
            HostMessage::Response(Response {
                id: 5,
                outcome: Ok(Reply::Pong(reply::Pong { version })),
            }) => {
                assert_eq!(version, agent(n).to_string())
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Writes `payload` as one frame, whatever it holds, straight onto a stream.
async fn write_frame(stream: &mut (impl tokio::io::AsyncWrite + Unpin), payload: &[u8]) {
    let len = (payload.len() as u32).to_le_bytes();
    stream.write_all(&len).await.unwrap();
    stream.write_all(payload).await.unwrap();
}

async fn send_raw(c: &mut Client, payload: &[u8]) {
    write_frame(c.get_mut(), payload).await;
}

#[tokio::test]
async fn a_request_acts_as_the_agent_that_said_hello_whatever_it_names() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    let forged = format!(
        r#"{{"type":"request","id":8,"agentId":"{}","timeoutMs":5000,"deadlineMs":4102444800000,"command":{{"name":"getTabs"}}}}"#,
        agent(2).secret()
    );
    send_raw(&mut c, forged.as_bytes()).await;
    let ToExtension::Request(req) = ext_next(&mut host).await else {
        panic!("not a request")
    };
    assert_eq!(req.agent_id, agent(1), "the host stamps the hello's agent");
}

#[tokio::test]
async fn unknown_commands_and_bad_json_get_errors_and_the_connection_goes_on() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    let unknown = format!(
        r#"{{"type":"request","id":9,"agentId":"{}","timeoutMs":5000,"deadlineMs":4102444800000,"command":{{"name":"executeScript","args":{{}}}}}}"#,
        agent(1).secret()
    );
    send_raw(&mut c, unknown.as_bytes()).await;
    let e = error_for(&mut c, 9).await;
    assert_eq!(e.code, ErrorCode::UnknownCommand);
    assert!(e.message.contains("\"executeScript\""), "{e}");
    assert!(
        e.message.contains("navigate"),
        "lists the allowed commands: {e}"
    );
    let bad_args = format!(
        r#"{{"type":"request","id":10,"agentId":"{}","timeoutMs":5000,"deadlineMs":4102444800000,"command":{{"name":"closeTab","args":{{"tabId":"x"}}}}}}"#,
        agent(1).secret()
    );
    send_raw(&mut c, bad_args.as_bytes()).await;
    let e = error_for(&mut c, 10).await;
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    // Arguments are checked as they are parsed: a page the agent may not open never reaches
    // the extension.
    let bad_url = format!(
        r#"{{"type":"request","id":12,"agentId":"{}","timeoutMs":5000,"deadlineMs":4102444800000,"command":{{"name":"navigate","args":{{"url":"javascript:alert(1)"}}}}}}"#,
        agent(1).secret()
    );
    send_raw(&mut c, bad_url.as_bytes()).await;
    let e = error_for(&mut c, 12).await;
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.contains("invalid `url`"), "{e}");
    extension_hears_nothing(&mut host).await;
    send_raw(&mut c, b"{not json").await;
    match next(&mut c).await {
        HostMessage::Error(e) => assert_eq!(e.code, ErrorCode::Malformed),
        other => panic!("{other:?}"),
    }
    send_raw(&mut c, &[0xff, 0xfe]).await;
    match next(&mut c).await {
        HostMessage::Error(e) => assert_eq!(e.code, ErrorCode::Malformed, "{e}"),
        other => panic!("{other:?}"),
    }
    // Still usable after all that.
    ping_through(&mut host, &mut c, 11, 1).await;
}

/// The extension answers request `id` with a pong.
async fn ext_pong(host: &mut Host, id: u64) {
    pong_as(host, id, "up").await;
}

/// A host with agents 1 and 2 connected.
async fn two_agents() -> (Host, Client, Client) {
    let host = start(Duration::from_secs(5)).await;
    let a = hello(&host, 1).await;
    let b = hello(&host, 2).await;
    (host, a, b)
}

/// Client `c` asks; the request must reach the test's extension end, which gets it.
async fn forwarded(host: &mut Host, c: &mut Client, id: u64, command: Command) -> Request {
    c.send(request(id, command)).await.unwrap();
    let ToExtension::Request(req) = ext_next(host).await else {
        panic!("request {id} did not reach the extension")
    };
    req
}

/// The test's extension end answers request `id` with a pong naming `version`.
async fn pong_as(host: &mut Host, id: u64, version: &str) {
    let pong = Ok(Reply::Pong(reply::Pong {
        version: version.into(),
    }));
    host.ext
        .send(FromExtension::Response(Response { id, outcome: pong }))
        .await
        .unwrap();
}

/// A ping from client `n` answered by the test's extension end: the link still works, and
/// the request reached the extension as agent `n`'s.
async fn ping_through(host: &mut Host, c: &mut Client, id: u64, n: u8) {
    c.send(request(id, Command::Ping)).await.unwrap();
    let ToExtension::Request(req) = ext_next(host).await else {
        panic!("not a request")
    };
    assert_eq!(req.agent_id, agent(n));
    ext_pong(host, req.id).await;
    match next(c).await {
        HostMessage::Response(Response { id: got, outcome }) => {
            assert_eq!((got, outcome.is_ok()), (id, true))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn bad_lengths_are_answered_and_the_connection_goes_on() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    c.get_mut().write_all(&0u32.to_le_bytes()).await.unwrap();
    match next(&mut c).await {
        HostMessage::Error(e) => assert_eq!(e.code, ErrorCode::Malformed, "{e}"),
        other => panic!("{other:?}"),
    }
    // Over 10 MiB: skipped as it arrives, answered under its own id.
    let huge = format!(
        r#"{{"type":"request","id":12,"x":"{}"}}"#,
        "x".repeat(MAX_SOCKET_FRAME)
    );
    send_raw(&mut c, huge.as_bytes()).await;
    let e = error_for(&mut c, 12).await;
    assert_eq!(e.code, ErrorCode::TooLarge, "{e}");
    ping_through(&mut host, &mut c, 13, 1).await;
}

#[tokio::test]
async fn a_request_over_1_mib_is_refused_not_sent() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    // Valid arguments (each field within its limit) that together pass the 1 MiB frame.
    let text = serde_json::json!({"typed": {"text": "x".repeat(MAX_TYPE_TEXT)}});
    let field = serde_json::json!([{"selector": "#a"}, text]);
    let fields = vec![field; MAX_TO_EXTENSION / MAX_TYPE_TEXT + 1];
    let cmd: Command = serde_json::from_value(serde_json::json!({
        "name": "fillForm",
        "args": {"fields": fields, "tabId": null},
    }))
    .unwrap();
    c.send(request(3, cmd)).await.unwrap();
    let e = error_for(&mut c, 3).await;
    assert_eq!(e.code, ErrorCode::TooLarge);
    extension_hears_nothing(&mut host).await;
}

#[tokio::test]
async fn a_departed_client_releases_its_agent_and_its_late_answer_is_dropped() {
    let (mut host, mut a, mut b) = two_agents().await;
    let req = forwarded(&mut host, &mut a, 1, Command::GetTabs).await;
    drop(a);
    assert_eq!(
        ext_next(&mut host).await,
        ToExtension::AgentGone { agent_id: agent(1) }
    );
    let late = Ok(Reply::Pong(reply::Pong {
        version: "late".into(),
    }));
    host.ext
        .send(FromExtension::Response(Response {
            id: req.id,
            outcome: late,
        }))
        .await
        .unwrap();
    // b still works and never sees a's answer.
    let req = forwarded(&mut host, &mut b, 2, Command::Ping).await;
    pong_as(&mut host, req.id, "b").await;
    match next(&mut b).await {
        HostMessage::Response(Response {
            id: 2,
            outcome: Ok(Reply::Pong(reply::Pong { version })),
        }) => assert_eq!(version, "b"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn stdin_eof_ends_the_host_and_removes_its_files() {
    let Host {
        rt,
        ext,
        task,
        stop,
        _dir,
        ..
    } = start(Duration::from_secs(5)).await;
    drop(ext);
    let result = tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .expect("host did not exit")
        .unwrap();
    assert!(result.is_ok(), "{result:?}");
    assert!(!listening(&rt) && !rt.token().exists(), "files left behind");
    drop(stop);
}

#[tokio::test]
async fn a_newer_host_keeps_its_files_when_the_older_one_exits() {
    let old = start(Duration::from_secs(5)).await;
    let (host_side, _ext) = tokio::io::duplex(1024);
    let (i, o) = tokio::io::split(host_side);
    let config = Config {
        runtime: old.rt.clone(),
        auth_timeout: Duration::from_secs(5),
        tuning: Tuning::default(),
    };
    let (_stop, stopped) = oneshot::channel::<()>();
    let newer = tokio::spawn(run(config, i, o, async {
        let _ = stopped.await;
    }));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while old.rt.read_token().map(|t| t == old.token).unwrap_or(true) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "newer host did not start"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let Host { rt, stop, task, .. } = old;
    stop.unwrap().send(()).unwrap();
    task.await.unwrap().unwrap();
    assert!(
        listening(&rt) && rt.token().exists(),
        "old host removed the newer host's files"
    );
    newer.abort();
}

#[tokio::test]
async fn a_bad_answer_from_the_extension_fails_only_its_request() {
    let (mut host, mut a, mut b) = two_agents().await;
    let req = forwarded(&mut host, &mut a, 1, Command::GetTabs).await;
    // An answer over the 10 MiB frame limit (a hostile page's text, say), then garbage.
    let huge = format!(
        r#"{{"type":"response","id":{},"outcome":{{"Ok":"{}"}}}}"#,
        req.id,
        "x".repeat(MAX_SOCKET_FRAME + 10)
    );
    let stream = host.ext.get_mut();
    stream
        .write_all(&(huge.len() as u32).to_le_bytes())
        .await
        .unwrap();
    stream.write_all(huge.as_bytes()).await.unwrap();
    stream.write_all(&0u32.to_le_bytes()).await.unwrap();
    stream.write_all(&5u32.to_le_bytes()).await.unwrap();
    stream.write_all(b"{nope").await.unwrap();
    let e = error_for(&mut a, 1).await;
    assert_eq!(e.code, ErrorCode::TooLarge, "{e}");
    assert!(e.message.contains("10485760"), "{e}");
    // An answer that is JSON but not an answer: the request it names fails, nothing else.
    let req = forwarded(&mut host, &mut a, 2, Command::GetTabs).await;
    let odd = format!(r#"{{"type":"response","id":{},"outcome":42}}"#, req.id);
    send_ext_raw(&mut host, odd.as_bytes()).await;
    let e = error_for(&mut a, 2).await;
    assert_eq!(e.code, ErrorCode::Internal, "{e}");
    // The host is still up for both agents.
    ping_through(&mut host, &mut b, 3, 2).await;
    ping_through(&mut host, &mut a, 4, 1).await;
    assert!(!host.task.is_finished());
}

async fn send_ext_raw(host: &mut Host, payload: &[u8]) {
    write_frame(host.ext.get_mut(), payload).await;
}

#[tokio::test]
async fn a_second_connection_with_a_live_agent_id_is_refused() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut first = hello(&host, 1).await;
    let mut thief = connect(&host).await;
    thief
        .send(ClientMessage::Hello {
            token: host.token.clone(),
            agent_id: agent(1),
            client: "thief".into(),
        })
        .await
        .unwrap();
    expect_refused(&mut thief, ErrorCode::AuthFailed).await;
    ping_through(&mut host, &mut first, 1, 1).await;
    // Once the first is gone, the id may connect again (a restarted link).
    drop(first);
    let _ = ext_next(&mut host).await;
    let again = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let mut c = connect(&host).await;
            c.send(ClientMessage::Hello {
                token: host.token.clone(),
                agent_id: agent(1),
                client: "t".into(),
            })
            .await
            .unwrap();
            if let HostMessage::Welcome { .. } = next(&mut c).await {
                return c;
            }
        }
    })
    .await
    .expect("welcomed again");
    drop(again);
}

#[tokio::test]
async fn requests_beyond_the_in_flight_limit_get_busy() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    // Fill the in-flight slots without answering from the extension's side.
    for id in 0..claudezilla_host::IN_FLIGHT as u64 {
        c.send(request(id, Command::Ping)).await.unwrap();
        let _ = ext_next(&mut host).await;
    }
    c.send(request(99, Command::Ping)).await.unwrap();
    let e = error_for(&mut c, 99).await;
    assert_eq!(e.code, ErrorCode::Busy, "{e}");
    assert!(e.hint.is_some());
    // Nothing beyond the slots reached the extension.
    extension_hears_nothing(&mut host).await;
}

#[tokio::test]
async fn a_flood_of_silent_connections_leaves_agents_working() {
    let mut host = start(Duration::from_secs(2)).await;
    let mut agent_conn = hello(&host, 1).await;
    let mut idle = Vec::new();
    for _ in 0..1_000 {
        idle.push(open(&host.rt).await);
    }
    ping_through(&mut host, &mut agent_conn, 1, 1).await;
    // Past the hello limit the oldest silent ones are closed.
    let limit = 1_000 - claudezilla_host::MAX_UNAUTHENTICATED;
    // A bound on a failing wait, not a time the closing must take: under Wine (the Windows
    // build's run, a debug build beside the other relay tests) a thousand pipes close many
    // times slower (seen: 694 in 5 s; 803 in 30 s; alone, all in 12 s).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let closed = idle
            .iter()
            .filter(|s| matches!(s.try_read(&mut [0u8; 1]), Ok(0)))
            .count();
        if closed >= limit {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "only {closed} closed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A new agent gets in while the silent ones still wait (it says hello at once).
    let _during = tokio::time::timeout(Duration::from_secs(5), hello(&host, 3))
        .await
        .expect("a new agent is welcomed during the flood");
    ping_through(&mut host, &mut agent_conn, 2, 1).await;
    // Once the silent ones are gone, a new agent is welcomed.
    drop(idle);
    let _newcomer = tokio::time::timeout(Duration::from_secs(5), hello(&host, 2))
        .await
        .expect("a new agent is welcomed after the flood");
}

/// The blocking client of `status` and the Stop hook: the folder and the other end checked
/// (on Windows: the pipe named in the folder, owned by us), hello, one command, its answer.
#[tokio::test]
async fn the_one_shot_client_checks_the_host_and_gets_its_answer() {
    let mut host = start(Duration::from_secs(5)).await;
    let rt = host.rt.clone();
    let call = tokio::task::spawn_blocking(move || {
        claudezilla_host::client::ask::<asks::Ping>(&rt, "relay test", ())
    });
    let ToExtension::Request(req) = ext_next(&mut host).await else {
        panic!("not a request")
    };
    assert!(matches!(req.command, Command::Ping));
    ext_pong(&mut host, req.id).await;
    let (version, answer) = call.await.unwrap().unwrap();
    assert_eq!(version, claudezilla_protocol::VERSION);
    assert_eq!(answer.unwrap().version, "up");
    // A folder others could have written to: nothing is sent, and the caller knows why.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let loose = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(host.rt.path(), loose).unwrap();
        let refused = claudezilla_host::client::ask::<asks::Ping>(&host.rt, "relay test", ());
        assert!(
            matches!(
                refused,
                Err(claudezilla_host::client::CallError::Untrusted(_))
            ),
            "{refused:?}"
        );
    }
}

#[tokio::test]
async fn a_big_hello_is_refused_before_authentication() {
    let host = start(Duration::from_secs(5)).await;
    let mut c = connect(&host).await;
    send_raw(
        &mut c,
        format!(r#"{{"type":"hello","token":"{}"}}"#, "a".repeat(100_000)).as_bytes(),
    )
    .await;
    expect_refused(&mut c, ErrorCode::AuthFailed).await;
}

#[tokio::test]
async fn the_extension_is_welcomed_and_its_pings_answered() {
    let mut host = start(Duration::from_secs(5)).await;
    host.ext
        .send(FromExtension::Hello {
            version: "9.9.9".into(),
        })
        .await
        .unwrap();
    assert_eq!(
        ext_next(&mut host).await,
        ToExtension::Welcome {
            host_version: claudezilla_protocol::VERSION.into(),
            tuning: Tuning::default()
        }
    );
    host.ext
        .send(FromExtension::Ping { seq: 42 })
        .await
        .unwrap();
    assert_eq!(ext_next(&mut host).await, ToExtension::Pong { seq: 42 });
}

#[test]
fn tuning_defaults_and_environment_overrides() {
    let env = |k: &str| (k == "CLAUDEZILLA_RESERVATION_MS").then(|| "1500".to_owned());
    let t = claudezilla_host::tuning_from_env(env);
    assert_eq!(t.reservation_ms, 1500);
    assert_eq!((t.idle_release_ms, t.mutex_busy_ms), (600_000, 2_500));
    let garbage = claudezilla_host::tuning_from_env(|_| Some("soon".into()));
    assert_eq!(
        Tuning {
            allowed_domains: Vec::new(),
            ..garbage.clone()
        },
        Tuning::default()
    );
    // A list that names no domain loads nothing, rather than lifting the list.
    assert_eq!(garbage.allowed_domains, ["soon"]);
    let listed = claudezilla_host::tuning_from_env(|k| {
        (k == "CLAUDEZILLA_ALLOWED_DOMAINS").then(|| " Example.com, *.docs.rs ".to_owned())
    });
    assert_eq!(listed.allowed_domains, ["example.com", "*.docs.rs"]);
}

#[tokio::test]
async fn uploads_pass_through_and_the_host_reads_no_file() {
    let mut host = start(Duration::from_secs(5)).await;
    let mut c = hello(&host, 1).await;
    let upload: Command = serde_json::from_value(serde_json::json!({
        "name": "uploadFile",
        "args": {
            "args": {"selector": "input", "path": "/etc/passwd"},
            "file": {"name": "passwd", "mime": "text/plain", "base64": "eA=="},
        },
    }))
    .unwrap();
    let req = forwarded(&mut host, &mut c, 1, upload).await;
    let Command::UploadFile(upload) = req.command else {
        panic!("{:?}", req.command)
    };
    assert_eq!(upload.file.base64, "eA==", "the host put in a file it read");
}
