//! Every searcher of the registry on every game of the registry, with
//! short budgets: a legal move everywhere, no move (and no panic) at a
//! finished position, seeded searches that repeat exactly, the `Limits`
//! contract of `game-traits`, and, on the toy games, the tactical cases
//! (wins in one for either player to move).

use std::time::{Duration, Instant};

use game_arena::registry::{
    BoxedSearcher, GAMES, GameVisitor, RegistryError, RegistryGame, SEARCHERS, SearcherSpec,
    build_searcher, visit_game,
};
use game_traits::testing::TicTacToe;
use game_traits::testing::{
    ContractOptions, check_limits_contract, check_repeatable, check_tactics, random_positions,
    tactical_cases,
};
use game_traits::{Game, SearchReport, Searcher};

/// A short, deterministic budget for each searcher.
fn short_spec(name: &str) -> String {
    let budget = match name {
        "uct" | "rave" => "iters=300",
        "gumbel" | "puct" => "iters=32",
        "minimax" | "alphabeta" => "depth=2",
        "solver" => "nodes=3000",
        _ => "",
    };
    if budget.is_empty() {
        name.to_string()
    } else {
        format!("{name}:{budget}")
    }
}

/// How a check went: "kept", or "FAILED" with the error.
fn judge(result: Result<(), String>) -> String {
    match result {
        Ok(()) => "kept".to_string(),
        Err(error) => format!("FAILED: {error}"),
    }
}

/// Searchers too slow for the contract's runs with no limit on the big
/// games (brute force over the whole tree; the exact solver from the
/// start, whose default budget is a whole solve): checked on the toys, and
/// the solver on endgames by its own crate.
fn contract_is_affordable<G: RegistryGame>(name: &str) -> bool {
    !(matches!(name, "minimax" | "solver")
        && matches!(G::NAME, "othello" | "jungle" | "gomoku" | "gomoku-full"))
}

struct CrossProduct;

#[derive(Debug, Default)]
struct Report {
    lines: Vec<String>,
    failures: Vec<String>,
}

impl GameVisitor for CrossProduct {
    type Output = Report;

    fn visit<G: RegistryGame>(self) -> Report {
        let mut report = Report::default();
        let start = G::start();
        let mut positions = vec![start.clone()];
        positions.extend(random_positions(&start, 3, 11));
        let finished = finished_position(&start);
        let cases: Vec<_> = if matches!(G::NAME, "tictactoe" | "nim") {
            tactical_cases(&start, 1, 2, 5)
        } else {
            Vec::new()
        };
        for info in SEARCHERS {
            let spec: SearcherSpec = short_spec(info.name).parse().expect("a valid spec");
            let label = format!("{} on {}", spec, G::NAME);
            let clock = Instant::now();
            let make = || build_searcher::<G>(&spec, 7);
            let searcher = match make() {
                Ok(searcher) => searcher,
                Err(RegistryError::Unsupported { .. }) => {
                    report.lines.push(format!("{label}: not for this game"));
                    continue;
                }
                Err(error) => {
                    report
                        .failures
                        .push(format!("{label}: cannot build: {error}"));
                    continue;
                }
            };
            drop(searcher);
            let basic = basic_checks(
                || make().expect("built once already"),
                &spec.limits(),
                &positions,
                &finished,
            );
            let mut fail = |what: String| report.failures.push(format!("{label}: {what}"));
            for failure in basic {
                fail(failure);
            }
            if !cases.is_empty() && info.name != "random" {
                let tactics_spec = tactics_spec(info.name);
                let mut tactician = build_searcher::<G>(&tactics_spec, 3).expect("builds");
                let result = check_tactics(&mut tactician, &cases, &tactics_spec.limits())
                    .map_err(|error| error.to_string());
                let verdict = judge(result);
                if verdict.starts_with("FAILED") {
                    fail(format!("tactics ({tactics_spec}): {verdict}"));
                }
            }
            let contract = if contract_is_affordable::<G>(info.name) {
                contract(&spec, &start)
            } else {
                "skipped (brute force over the whole tree)".to_string()
            };
            if contract.starts_with("FAILED") {
                fail(contract.clone());
            }
            report.lines.push(format!(
                "{label}: ok in {:.2} s; contract {contract}",
                clock.elapsed().as_secs_f64()
            ));
        }
        report
    }
}

/// A legal move at every position, none at the finished one, and two
/// searchers from `make` that agree exactly; returns what went wrong.
fn basic_checks<G: Game, S: Searcher<G>>(
    mut make: impl FnMut() -> S,
    limits: &game_traits::Limits,
    positions: &[G],
    finished: &G,
) -> Vec<String> {
    let mut failures = Vec::new();
    let mut searcher = make();
    for position in positions {
        searcher.reset();
        let report = searcher.search(position, limits);
        match report.best {
            Some(mv) if position.is_legal(mv) => {}
            other => failures.push(format!("played {other:?} in {position:?}")),
        }
    }
    let at_end = searcher.search(finished, limits);
    if at_end.best.is_some() {
        failures.push(format!("returned {:?} at a finished position", at_end.best));
    }
    if let Err(error) = check_repeatable(make, positions, limits) {
        failures.push(format!("not repeatable: {error}"));
    }
    failures
}

/// Budgets that find wins in one on the toy games.
fn tactics_spec(name: &str) -> SearcherSpec {
    let text = match name {
        "uct" | "rave" => "iters=2000",
        "gumbel" => "iters=64,k=16",
        "puct" => "iters=200",
        "minimax" | "alphabeta" => "depth=2",
        _ => "",
    };
    let text = if text.is_empty() {
        name.to_string()
    } else {
        format!("{name}:{text}")
    };
    text.parse().expect("a valid spec")
}

/// Runs the `Limits` contract.
fn contract<G: RegistryGame>(spec: &SearcherSpec, start: &G) -> String {
    let options = ContractOptions::default().with_hang(Duration::from_secs(10));
    let make = || -> BoxedSearcher<G> { build_searcher::<G>(spec, 7).expect("builds") };
    let result = check_limits_contract(make, start, &options).map_err(|error| error.to_string());
    judge(result)
}

/// A finished position reached by playing the first legal move (or a
/// seeded random one) until the end.
fn finished_position<G: RegistryGame>(start: &G) -> G {
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut ply = 0usize;
    loop {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return state;
        }
        ply += 1;
        state.play(moves[(ply * 7) % moves.len()]);
    }
}

#[test]
fn every_searcher_plays_every_game() {
    let clock = Instant::now();
    let mut failures = Vec::new();
    for (game, _) in GAMES {
        let report = visit_game(game, CrossProduct).expect("a registered game");
        for line in &report.lines {
            eprintln!("{line}");
        }
        failures.extend(report.failures);
    }
    eprintln!("cross product in {:.1} s", clock.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_searcher_default_budget_is_a_valid_budget() {
    for info in SEARCHERS {
        let spec: SearcherSpec = info.name.parse().expect("a bare name parses");
        assert_eq!(
            spec.limits().is_unbounded(),
            info.default_budget.is_empty(),
            "{}: default budget {:?}",
            info.name,
            info.default_budget
        );
    }
}

/// Broken on purpose: plays at finished positions, plays squares that
/// are taken, or draws from a generator shared by every instance.
struct Broken {
    flaw: &'static str,
}

static SHARED_DRAWS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Searcher<TicTacToe> for Broken {
    fn search(&mut self, state: &TicTacToe, _: &game_traits::Limits) -> SearchReport<u8> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let best = match self.flaw {
            "plays at the end" => Some(moves.first().copied().unwrap_or(4)),
            "illegal" => Some((0..9).find(|square| !moves.contains(square)).unwrap_or(0)),
            _ => {
                let draw = SHARED_DRAWS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                moves.get(draw % moves.len().max(1)).copied()
            }
        };
        SearchReport::new(best, 0.0)
    }
}

#[test]
fn the_checks_catch_broken_searchers() {
    let start = TicTacToe::new();
    let positions = random_positions(&start, 6, 2);
    let finished = finished_position(&start);
    let limits = game_traits::Limits::none();
    for (flaw, expected) in [
        ("plays at the end", "at a finished position"),
        ("illegal", "played Some"),
        ("unseeded", "not repeatable"),
    ] {
        let failures = basic_checks(|| Broken { flaw }, &limits, &positions, &finished);
        assert!(
            failures.iter().any(|failure| failure.contains(expected)),
            "{flaw}: {failures:?}"
        );
    }
    assert_eq!(
        judge(Err("the search panicked".to_string()))
            .split(':')
            .next(),
        Some("FAILED")
    );
}
