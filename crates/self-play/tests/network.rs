//! The network as an evaluator, and its files: what it computes alone and
//! in batches, what survives a save and a load, and a typed error for
//! every kind of bad file.

use bitboard_othello::Board;
use game_traits::testing::{Invariants, TicTacToe};
use game_traits::{Batch, BatchEvaluator, ColorFlip, Evaluator, Game, PlaneShape, PolicyEvaluator};
use self_play::{Architecture, NetError, Network};

mod common;

/// Tic-tac-toe whose encoding grows a plane under the same name.
type Wider = common::Recoded<{ common::WIDER }>;

impl Wider {
    fn new() -> Self {
        common::Recoded(TicTacToe::new())
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("self-play-net-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn othello_positions() -> Vec<Board> {
    let mut positions = vec![Board::start()];
    let mut moves = Vec::new();
    let mut board = Board::start();
    for ply in 0..40 {
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        board.play(moves[(ply * 7) % moves.len()]);
        positions.push(board.clone());
    }
    positions
}

fn architectures() -> [Architecture; 2] {
    [
        Architecture::residual(8, 2, 16),
        Architecture::mlp([32, 16]),
    ]
}

#[test]
fn values_and_logits_are_finite_and_batches_agree_with_single_positions() {
    for architecture in architectures() {
        let network: Network<Board> =
            Network::new(&Board::start(), architecture.clone(), 3).unwrap();
        let positions = othello_positions();
        let mut batch = Batch::new();
        for position in &positions {
            batch.push_legal(position);
        }
        network.evaluate_batch(&mut batch);
        for (index, position) in positions.iter().enumerate() {
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            let mut logits = vec![f32::NAN; moves.len()];
            let value = network.evaluate(position, &moves, &mut logits);
            assert!((-1.0..=1.0).contains(&value), "{architecture}: {value}");
            assert!(logits.iter().all(|logit| logit.is_finite()));
            // The same numbers alone as in a batch of 41 (the contract of
            // batch evaluators), to float rounding.
            assert!((batch.value(index) - value).abs() < 1e-5, "{architecture}");
            for (a, b) in batch.logits(index).iter().zip(&logits) {
                assert!((a - b).abs() < 1e-4, "{architecture}: {a} {b}");
            }
            assert!((network.value(position) - value).abs() < 1e-5);
        }
    }
}

#[test]
fn the_network_passes_the_evaluator_checks_of_the_harness() {
    // A position and its flip are encoded alike, so any network gives
    // them the same value.
    let network: Network<TicTacToe> =
        Network::new(&TicTacToe::new(), Architecture::residual(4, 1, 8), 1).unwrap();
    Invariants::new(TicTacToe::new(), 9)
        .cases(16)
        .policy_evaluator(network.clone())
        .color_flip_evaluator(network)
        .assert();
}

#[test]
fn saved_networks_load_with_the_same_outputs() {
    let dir = scratch("round-trip");
    for (index, architecture) in architectures().into_iter().enumerate() {
        let network: Network<Board> = Network::new(&Board::start(), architecture, 5).unwrap();
        let path = dir.join(format!("net{index}.safetensors"));
        network.save(&path).unwrap();
        let loaded = Network::load(&path, &Board::start()).unwrap();
        assert_eq!(loaded.spec(), network.spec());
        for position in othello_positions() {
            assert_eq!(loaded.value(&position), network.value(&position));
        }
        let (spec, metadata) = self_play::inspect(&path).unwrap();
        assert_eq!(spec.encoding, "othello/v1");
        assert_eq!(metadata["planes"], "4x8x8");
    }
}

/// Replaces `from` by `to` (same length) in the file's bytes.
fn edit(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let at = bytes
        .windows(from.len())
        .position(|window| window == from.as_bytes())
        .unwrap_or_else(|| panic!("{from:?} is in the file"));
    let mut edited = bytes.to_vec();
    edited[at..at + to.len()].copy_from_slice(to.as_bytes());
    edited
}

#[test]
fn bad_files_get_typed_errors() {
    let dir = scratch("bad");
    let start = Board::start();
    let network: Network<Board> =
        Network::new(&start, Architecture::residual(8, 2, 16), 5).unwrap();
    let path = dir.join("good.safetensors");
    network.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let load = |bytes: &[u8]| Network::<Board>::from_bytes(bytes, &start, "test");

    // Missing.
    assert!(matches!(
        Network::<Board>::load(dir.join("missing.safetensors"), &start),
        Err(NetError::Io { .. })
    ));
    // Truncated anywhere: never a panic, always an error.
    for cut in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
        let error = load(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(error, NetError::Format { .. } | NetError::Corrupt { .. }),
            "cut at {cut}: {error}"
        );
    }
    // A weight changed: the checksum sees it.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 3;
    damaged[last] ^= 0x10;
    assert!(matches!(load(&damaged), Err(NetError::Corrupt { .. })));
    // Another game's network.
    let tictactoe: Network<TicTacToe> =
        Network::new(&TicTacToe::new(), Architecture::mlp([8]), 1).unwrap();
    let other = dir.join("tictactoe.safetensors");
    tictactoe.save(&other).unwrap();
    let error = Network::<Board>::load(&other, &start).unwrap_err();
    assert!(matches!(error, NetError::WrongGame { .. }), "{error}");
    assert!(error.to_string().contains("tictactoe/v1"), "{error}");
    // An architecture that does not fit the tensors.
    let wrong = edit(&bytes, "channels=8", "channels=9");
    assert!(
        matches!(load(&wrong), Err(NetError::WrongTensor { .. })),
        "{:?}",
        load(&wrong).err()
    );
    let wrong = edit(&bytes, "blocks=2", "blocks=3");
    assert!(matches!(load(&wrong), Err(NetError::MissingTensor { .. })));
    // Another format, another version, unreadable metadata.
    let other_format = edit(&bytes, "game-search-net", "game-search-xyz");
    assert!(matches!(
        load(&other_format),
        Err(NetError::Metadata { .. })
    ));
    let version = edit(
        &bytes,
        "\"format_version\":\"1\"",
        "\"format_version\":\"7\"",
    );
    assert!(matches!(load(&version), Err(NetError::Version { .. })));
    let planes = edit(&bytes, "4x8x8", "4x8y8");
    assert!(matches!(load(&planes), Err(NetError::Metadata { .. })));
    // Not a safetensors file at all.
    assert!(matches!(
        load(b"hello, world"),
        Err(NetError::Format { .. })
    ));
    assert!(matches!(load(&[]), Err(NetError::Format { .. })));
}

#[test]
fn a_network_of_another_shape_is_refused() {
    let dir = scratch("shape");
    let network: Network<TicTacToe> =
        Network::new(&TicTacToe::new(), Architecture::mlp([8]), 1).unwrap();
    let path = dir.join("net.safetensors");
    network.save(&path).unwrap();
    let error = Network::load(&path, &Wider::new()).unwrap_err();
    assert!(matches!(error, NetError::WrongShape { .. }), "{error}");
    // Positions of another shape in a batch get neutral answers, not a
    // panic.
    let wide: Network<Wider> = Network::new(&Wider::new(), Architecture::mlp([8]), 1).unwrap();
    let _ = wide.value(&Wider::new());
    let flipped = TicTacToe::new().color_flipped();
    assert_eq!(network.value(&flipped), network.value(&TicTacToe::new()));
}

#[test]
fn architectures_read_and_refuse() {
    let read = |text: &str| text.parse::<Architecture>();
    assert_eq!(read("resnet").unwrap(), Architecture::residual(32, 4, 64));
    assert_eq!(
        read("resnet:channels=16,blocks=2,value=32").unwrap(),
        Architecture::residual(16, 2, 32)
    );
    assert_eq!(read("mlp:64,32").unwrap(), Architecture::mlp([64, 32]));
    assert_eq!(read("mlp").unwrap(), Architecture::mlp([256, 256]));
    for bad in [
        "transformer",
        "resnet:channels=0",
        "resnet:channels=x",
        "resnet:depth=3",
        "resnet:blocks=65",
        "mlp:0",
        "mlp:64,,32",
        "mlp:100000",
    ] {
        assert!(
            matches!(read(bad), Err(NetError::Architecture { .. })),
            "{bad}"
        );
    }
    let architecture = read("resnet:channels=16,blocks=2,value=32").unwrap();
    assert_eq!(
        architecture.to_string().parse::<Architecture>().unwrap(),
        architecture
    );
    // 3x3 convolutions over 64 cells: 16 * 4 * 9 * 64 for the stem, and so on.
    let shape = PlaneShape::new(4, 8, 8);
    let stem = 16 * 4 * 9 * 64;
    let blocks = 2 * 2 * 16 * 16 * 9 * 64;
    let heads = (2 * 16 + 16) * 64 + 65 * 128 + 32 * 64 + 32;
    assert_eq!(
        architecture.multiply_adds(shape, 65),
        (stem + blocks + heads) as u64
    );
}
