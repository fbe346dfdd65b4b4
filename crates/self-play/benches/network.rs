//! The network's speed on the shipped Othello network (`nets/othello.safetensors`):
//! the matrix-multiply rate of the tensor library (the machine's peak for
//! it), inference at batch 1, 16, 64 and 256, a training step, and
//! self-play with 16 games sharing batches against one game at a time.
//! Every measurement checks its result.
//!
//! ```text
//! cargo bench -p self-play --bench network
//! ```
//!
//! Throughputs are per element: GFLOP for the matrix product, positions
//! for inference and self-play, samples for training.

use std::path::PathBuf;

use bitboard_othello::Board;
use candle_core::{Device, Tensor};
use criterion::{BenchmarkId, Criterion, Throughput};
use game_traits::{Game, PlaneEncoding};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use self_play::{
    Augmenter, Network, Planes, Sample, SelfPlayConfig, TrainConfig, Trainer, play_games,
};

fn shipped() -> Network<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../nets/othello.safetensors");
    Network::load(&path, &Board::start())
        .unwrap_or_else(|error| panic!("the shipped network: {error}"))
}

/// Positions from a few seeded random games.
fn positions(count: usize) -> Vec<Board> {
    use rand::RngExt;
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut positions = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut board = Board::start();
        while !board.is_over() && positions.len() < count {
            positions.push(board.clone());
            board.legal_moves(&mut moves);
            board.play(moves[rng.random_range(..moves.len())]);
        }
    }
    positions
}

fn gemm(c: &mut Criterion) {
    let mut group = c.benchmark_group("gemm/candle");
    for (m, k, n) in [(1024, 1024, 1024), (4096, 288, 32)] {
        let a = Tensor::randn(0f32, 1.0, (m, k), &Device::Cpu).unwrap();
        let b = Tensor::randn(0f32, 1.0, (k, n), &Device::Cpu).unwrap();
        group.throughput(Throughput::Elements(2 * (m * k * n) as u64));
        group.bench_function(
            BenchmarkId::from_parameter(format!("{m}x{k}x{n}")),
            |bench| {
                bench.iter(|| {
                    let product = a.matmul(&b).unwrap();
                    assert_eq!(product.dims(), [m, n]);
                    product
                });
            },
        );
    }
    group.finish();
}

fn inference(c: &mut Criterion) {
    let network = shipped();
    let shape = network.spec().planes;
    let all = positions(256);
    let mut group = c.benchmark_group("inference/othello");
    for batch in [1usize, 16, 64, 256] {
        let mut planes = vec![0.0; batch * shape.len()];
        for (position, chunk) in all.iter().zip(planes.chunks_exact_mut(shape.len())) {
            position.encode_planes(chunk);
        }
        group.throughput(Throughput::Elements(batch as u64));
        group.bench_function(BenchmarkId::from_parameter(batch), |bench| {
            bench.iter(|| {
                let (policy, values) = network.forward(planes.clone(), batch).unwrap();
                assert_eq!(policy.len(), batch * 65);
                assert!(values.iter().all(|value| value.abs() <= 1.0));
                values
            });
        });
    }
    group.finish();
}

fn training(c: &mut Criterion) {
    let network = shipped();
    let boards = positions(256);
    let samples: Vec<Sample> = boards
        .iter()
        .map(|board| {
            let mut planes = vec![0.0; board.plane_shape().len()];
            board.encode_planes(&mut planes);
            let mut moves = Vec::new();
            board.legal_moves(&mut moves);
            let share = 1.0 / moves.len() as f32;
            Sample {
                planes: Planes::pack(&planes),
                policy: moves
                    .iter()
                    .map(|&mv| (board.policy_index(mv) as u32, share))
                    .collect(),
                outcome: 0.0,
                search_value: 0.0,
            }
        })
        .collect();
    let references: Vec<&Sample> = samples.iter().collect();
    let batch = Augmenter::new(&Board::start(), true).batch(
        &references,
        0.0,
        &mut Pcg64Mcg::seed_from_u64(1),
    );
    let mut trainer = Trainer::from_network(&network, TrainConfig::default()).unwrap();
    let mut group = c.benchmark_group("train/othello");
    group.sample_size(10);
    group.throughput(Throughput::Elements(256));
    group.bench_function("256", |bench| {
        bench.iter(|| {
            let losses = trainer.train_step(&batch).unwrap();
            assert!(losses.policy.is_finite() && losses.value.is_finite());
            losses
        });
    });
    group.finish();
}

fn self_play(c: &mut Criterion) {
    let network = shipped();
    let numbers: Vec<u64> = (0..16).collect();
    let mut group = c.benchmark_group("selfplay/othello");
    group.sample_size(10);
    for (name, at_once) in [("16-together", 16), ("1-at-a-time", 1)] {
        let mut config = SelfPlayConfig::default();
        config.simulations = 8;
        config.games_at_once = at_once;
        config.threads = 1;
        let (_, stats) = play_games(&Board::start(), &network, &config, &numbers).unwrap();
        group.throughput(Throughput::Elements(stats.positions));
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let (games, run) =
                    play_games(&Board::start(), &network, &config, &numbers).unwrap();
                assert_eq!(games.len(), 16);
                assert!(games.iter().all(|game| game.outcome.is_some()));
                assert_eq!(run.positions, stats.positions);
                run
            });
        });
    }
    group.finish();
}

fn main() {
    if let Err(error) = self_play::tune_environment() {
        eprintln!("note: running without the tuned environment ({error})");
    }
    let mut criterion = Criterion::default().configure_from_args();
    gemm(&mut criterion);
    inference(&mut criterion);
    training(&mut criterion);
    self_play(&mut criterion);
    criterion.final_summary();
}
