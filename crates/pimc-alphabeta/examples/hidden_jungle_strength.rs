//! Hidden Jungle: how strong is PIMC over alpha-beta, and what does hidden
//! information cost? Series of games (each deal played twice, colours
//! swapped) with 95% confidence intervals:
//!
//! * PIMC against a random player, and against the naive baseline (the
//!   same alpha-beta on the standard layout, as far as the observations
//!   allow);
//! * the cheating baseline (the same alpha-beta on the true world) against
//!   PIMC: its margin is what hidden information costs PIMC;
//! * PIMC with worlds weighted by an opponent model (softmax over a
//!   one-ply evaluation, once few enough worlds remain) against PIMC with
//!   uniform worlds;
//! * PIMC against itself with the other ways of valuing the root moves in
//!   each world (`RootValues`: bounds, near, exact), at the same depth;
//! * Information Set MCTS (`mcts_rave::Ismcts`) against a random player,
//!   and against PIMC over alpha-beta and PIMC over MCTS at equal time per
//!   move (`--move-ms`), series `ismcts-random`, `ismcts-pimc`,
//!   `ismcts-pimc-mcts` (not run by default).
//!
//! ```text
//! cargo run --release -p pimc-alphabeta --example hidden_jungle_strength -- \
//!     --deals 50 --depth 4 --worlds 40 --threads 2 --seed 2026
//! ```
//!
//! Options: `--deals N` (games = 2 N per series), `--depth D` (alpha-beta
//! depth per world, and of the baselines), `--worlds W`, `--threads T`
//! (games played at once), `--seed S`, `--max-plies P` (unfinished games
//! count as draws), `--weighted-worlds K` (weight worlds once at most K
//! remain), `--temperature X` (of the opponent model), `--root
//! bounds|exact|near:M` (how the inner alpha-beta values root moves;
//! default near:0.1), `--series random,naive,cheat,weighted,roots` (which
//! series to run), `--move-ms M` (time per move of the ISMCTS series, for
//! both players; default 100), `--cutoff C` (MCTS playouts of ISMCTS and
//! PIMC over MCTS stop after C plies and are valued by the evaluator;
//! default 20).
//!
//! ```text
//! cargo run --release -p pimc-alphabeta --example hidden_jungle_strength -- \
//!     --deals 100 --worlds 20 --threads 2 --move-ms 100 \
//!     --series ismcts-random,ismcts-pimc,ismcts-pimc-mcts
//! ```

use std::collections::HashMap;
use std::time::{Duration, Instant};

use dou_shou_qi::hidden::{
    HiddenInfoSet, HiddenRules, Layout, Observation, OpponentModel, Referee, SoftmaxOpponent,
};
use dou_shou_qi::{Jungle, JungleEvaluator, JunglePlayout};
use game_traits::hidden::{
    InfoSetSearcher, Informed, Omniscient, WorldEnumeration, WorldMove, play_hidden_series,
};
use game_traits::{Game, InformationSet, LimitKind, Limits, Player, RandomSearcher, SearchReport};
use game_traits::{SeriesOptions, SeriesResult};
use mcts_rave::{Ismcts, LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Uct};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, Naive, Pimc, PimcConfig, RootValues};
use rand::{Rng, RngExt};

/// The command line.
#[derive(Clone, Debug)]
struct Settings {
    deals: u32,
    depth: u32,
    worlds: usize,
    threads: usize,
    seed: u64,
    max_plies: usize,
    weighted_worlds: u64,
    temperature: f64,
    root: RootValues,
    series: Vec<String>,
    move_ms: u64,
    cutoff: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            deals: 50,
            depth: 4,
            worlds: 40,
            threads: 2,
            seed: 2026,
            max_plies: 400,
            weighted_worlds: 2_000,
            temperature: 0.1,
            root: RootValues::Near(0.1),
            series: ["random", "naive", "cheat", "weighted", "roots"]
                .map(String::from)
                .to_vec(),
            move_ms: 100,
            cutoff: 20,
        }
    }
}

/// `bounds`, `exact` or `near:M`.
fn parse_root(text: &str) -> Result<RootValues, String> {
    match text {
        "bounds" => Ok(RootValues::Bounds),
        "exact" => Ok(RootValues::Exact),
        _ => text
            .strip_prefix("near:")
            .and_then(|margin| margin.parse::<f32>().ok())
            .filter(|margin| margin.is_finite() && *margin > 0.0)
            .map(RootValues::Near)
            .ok_or_else(|| format!("--root: {text:?} is not bounds, exact or near:<margin>")),
    }
}

fn root_name(root: RootValues) -> String {
    match root {
        RootValues::Bounds => "bounds".to_string(),
        RootValues::Exact => "exact".to_string(),
        RootValues::Near(margin) => format!("near {margin}"),
        _ => format!("{root:?}"),
    }
}

fn parse() -> Result<Settings, String> {
    let mut settings = Settings::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |_| format!("{flag}: {value:?} is not a valid number");
        match flag.as_str() {
            "--deals" => settings.deals = value.parse().map_err(bad)?,
            "--depth" => settings.depth = value.parse().map_err(bad)?,
            "--worlds" => settings.worlds = value.parse().map_err(bad)?,
            "--threads" => settings.threads = value.parse().map_err(bad)?,
            "--seed" => settings.seed = value.parse().map_err(bad)?,
            "--max-plies" => settings.max_plies = value.parse().map_err(bad)?,
            "--weighted-worlds" => settings.weighted_worlds = value.parse().map_err(bad)?,
            "--temperature" => {
                settings.temperature = value
                    .parse()
                    .map_err(|_| format!("--temperature: {value:?} is not a number"))?;
            }
            "--series" => settings.series = value.split(',').map(String::from).collect(),
            "--root" => settings.root = parse_root(&value)?,
            "--move-ms" => settings.move_ms = value.parse().map_err(bad)?,
            "--cutoff" => settings.cutoff = value.parse().map_err(bad)?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if settings.worlds == 0
        || settings.threads == 0
        || settings.depth == 0
        || settings.move_ms == 0
        || settings.cutoff == 0
    {
        return Err(
            "--worlds, --threads, --depth, --move-ms and --cutoff must be at least 1".to_string(),
        );
    }
    Ok(settings)
}

type Inner = AlphaBeta<Jungle, JungleEvaluator>;

fn alpha_beta() -> Inner {
    AlphaBeta::new(JungleEvaluator::default(), AlphaBetaConfig::default()).expect("valid settings")
}

fn pimc<I: WorldEnumeration<World = Jungle>>(settings: &Settings, seed: u64) -> Pimc<I, Inner> {
    pimc_with(settings, settings.root, seed)
}

fn pimc_with<I: WorldEnumeration<World = Jungle>>(
    settings: &Settings,
    root: RootValues,
    seed: u64,
) -> Pimc<I, Inner> {
    Pimc::new(
        move |_| alpha_beta().with_root_values(root),
        PimcConfig::default()
            .with_worlds(settings.worlds)
            .with_seed(seed),
    )
    .expect("valid settings")
}

/// MCTS settings shared by ISMCTS and PIMC over MCTS: one thread, playouts
/// cut off after `--cutoff` plies and valued by the Jungle evaluator.
fn mcts_config(settings: &Settings, seed: u64) -> MctsConfig {
    MctsConfig::default()
        .with_seed(seed)
        .with_leaf(LeafEvaluation::PlayoutCutoff {
            depth: settings.cutoff,
        })
}

fn ismcts(settings: &Settings, seed: u64) -> Ismcts<HiddenInfoSet, JunglePlayout, JungleEvaluator> {
    Ismcts::new(
        MctsKnowledge::uct()
            .with_playout(JunglePlayout::default())
            .with_evaluator(JungleEvaluator::default()),
        mcts_config(settings, seed),
    )
    .expect("valid settings")
}

type InnerMcts = Mcts<Jungle, Uct, JunglePlayout, JungleEvaluator>;

fn pimc_mcts(settings: &Settings, seed: u64) -> Pimc<HiddenInfoSet, InnerMcts> {
    let config = mcts_config(settings, seed);
    Pimc::new(
        move |seed| {
            Mcts::new(
                MctsKnowledge::uct()
                    .with_playout(JunglePlayout::default())
                    .with_evaluator(JungleEvaluator::default()),
                config.clone().with_seed(seed),
            )
            .expect("valid settings")
        },
        PimcConfig::default()
            .with_worlds(settings.worlds)
            .with_seed(seed),
    )
    .expect("valid settings")
}

/// What a player believes: uniform over the consistent worlds, or weighted
/// by the opponent model.
#[derive(Clone, Debug)]
enum Belief {
    Uniform(HiddenInfoSet),
    Weighted {
        info: HiddenInfoSet,
        /// Consistent setups with their normalized weights.
        worlds: std::sync::Arc<Vec<(Layout, f64)>>,
    },
}

impl Belief {
    fn info(&self) -> &HiddenInfoSet {
        match self {
            Belief::Uniform(info) | Belief::Weighted { info, .. } => info,
        }
    }
}

impl InformationSet for Belief {
    type World = Jungle;

    fn player(&self) -> Player {
        self.info().player()
    }

    fn to_move(&self) -> Player {
        self.info().to_move()
    }

    fn legal_moves(&self, out: &mut Vec<WorldMove<HiddenInfoSet>>) {
        self.info().legal_moves(out);
    }

    fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> Jungle {
        match self {
            Belief::Uniform(info) => info.sample_world(rng),
            Belief::Weighted { info, worlds } => {
                let mut pick = rng.random::<f64>();
                let mut chosen = &worlds[worlds.len() - 1].0;
                for (layout, weight) in worlds.iter() {
                    if pick < *weight {
                        chosen = layout;
                        break;
                    }
                    pick -= weight;
                }
                info.world(chosen).expect("a consistent setup")
            }
        }
    }
}

impl WorldEnumeration for Belief {
    fn world_count(&self) -> u64 {
        match self {
            Belief::Uniform(info) => WorldEnumeration::world_count(info),
            Belief::Weighted { worlds, .. } => worlds.len() as u64,
        }
    }

    fn worlds(&self) -> Vec<(Jungle, f64)> {
        match self {
            Belief::Uniform(info) => info.worlds(),
            Belief::Weighted { info, worlds } => worlds
                .iter()
                .filter(|(_, weight)| *weight > 0.0)
                .map(|(layout, weight)| (info.world(layout).expect("consistent"), *weight))
                .collect(),
        }
    }
}

/// PIMC whose worlds are weighted by the opponent model once at most
/// `weighted_worlds` remain. The weights `Π P(opponent's move | world)`
/// are kept per setup and brought up to date move by move, so each
/// opponent move is rated once per world.
struct WeightedPimc {
    pimc: Pimc<Belief, Inner>,
    model: SoftmaxOpponent<JungleEvaluator>,
    weighted_worlds: u64,
    /// Per setup: its world replayed so far and its log weight.
    cache: HashMap<Layout, (Jungle, f64)>,
    /// Observations replayed into the cached worlds.
    replayed: usize,
}

impl WeightedPimc {
    fn new(settings: &Settings, seed: u64) -> WeightedPimc {
        WeightedPimc {
            pimc: pimc(settings, seed),
            model: SoftmaxOpponent {
                evaluator: JungleEvaluator::default(),
                temperature: settings.temperature,
            },
            weighted_worlds: settings.weighted_worlds,
            cache: HashMap::new(),
            replayed: 0,
        }
    }

    fn belief(&mut self, info: &HiddenInfoSet) -> Belief {
        if WorldEnumeration::world_count(info) > self.weighted_worlds {
            return Belief::Uniform(info.clone());
        }
        let observations = info.observations();
        if self.cache.is_empty() {
            for layout in info.consistent_layouts() {
                let world = info.initial_world(&layout);
                self.cache.insert(layout, (world, 0.0));
            }
            self.replayed = 0;
        }
        self.cache.retain(|layout, _| info.is_consistent(layout));
        let opponent = info.player().opponent();
        let new: &[Observation] = &observations[self.replayed..];
        for (world, log_weight) in self.cache.values_mut() {
            for observation in new {
                if observation.mover == opponent {
                    let weight = self.model.move_weight(world, observation.mv);
                    *log_weight += weight.max(1e-300).ln();
                }
                world.play(observation.mv);
            }
        }
        self.replayed = observations.len();
        let best = self
            .cache
            .values()
            .map(|(_, log_weight)| *log_weight)
            .fold(f64::NEG_INFINITY, f64::max);
        let mut worlds: Vec<(Layout, f64)> = self
            .cache
            .iter()
            .map(|(layout, (_, log_weight))| (*layout, (log_weight - best).exp()))
            .collect();
        // A fixed order keeps the decisions repeatable.
        worlds.sort_by_key(|(layout, _)| layout.to_string());
        let total: f64 = worlds.iter().map(|(_, weight)| weight).sum();
        for (_, weight) in &mut worlds {
            *weight /= total;
        }
        Belief::Weighted {
            info: info.clone(),
            worlds: std::sync::Arc::new(worlds),
        }
    }
}

impl InfoSetSearcher<HiddenInfoSet> for WeightedPimc {
    fn search(&mut self, info: &HiddenInfoSet, limits: &Limits) -> SearchReport<dou_shou_qi::Move> {
        let belief = self.belief(info);
        self.pimc.search(&belief, limits)
    }

    fn reset(&mut self) {
        self.pimc.reset();
        self.cache.clear();
        self.replayed = 0;
    }

    fn name(&self) -> String {
        "pimc-weighted".to_string()
    }

    fn honours(&self, kind: LimitKind) -> bool {
        self.pimc.honours(kind)
    }
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_string())
}

fn row<M>(a: &str, b: &str, series: &SeriesResult<M>, seconds: f64) {
    let tally = series.tally;
    let (low, high) = tally.confidence95();
    let plies: usize = series.games.iter().map(|game| game.plies).sum();
    let unfinished = series
        .games
        .iter()
        .filter(|game| game.outcome.is_none())
        .count();
    println!(
        "| {a} | {b} | {} | +{} ={} -{} | {:.1}% | {:.1}%-{:.1}% | {:.0} | {unfinished} | {seconds:.0} s |",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        100.0 * low,
        100.0 * high,
        plies as f64 / series.games.len().max(1) as f64,
    );
}

fn main() {
    let settings = match parse() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    println!(
        "Hidden Jungle (default rules: reveal loser only, random setups), {} deals x 2 colours per series, seed {}, {} games at once, at most {} plies (unfinished = draw)",
        settings.deals, settings.seed, settings.threads, settings.max_plies
    );
    println!(
        "PIMC: {} worlds, alpha-beta depth {} per world (JungleEvaluator, default settings, {} root values); baselines: the same alpha-beta at depth {}; weighted: softmax opponent model, temperature {}, from {} worlds or fewer",
        settings.worlds,
        settings.depth,
        root_name(settings.root),
        settings.depth,
        settings.temperature,
        settings.weighted_worlds
    );
    println!("load average at the start: {}", load());
    println!();
    println!(
        "| A | B | games | A: +win =draw -loss | score of A | 95% CI | plies per game | unfinished | time |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let options = SeriesOptions::new(settings.deals, 0, Limits::depth(settings.depth))
        .with_seed(settings.seed)
        .with_threads(settings.threads)
        .with_max_plies(settings.max_plies);
    let deal = |seed| Referee::random(HiddenRules::default(), seed);
    let run = |name: &str| settings.series.iter().any(|wanted| wanted == name);
    let pimc_name = format!(
        "PIMC(alpha-beta d{}, {} worlds, {} root)",
        settings.depth,
        settings.worlds,
        root_name(settings.root)
    );
    if run("random") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |seed| Informed(pimc::<HiddenInfoSet>(&settings, seed)),
            |seed| Informed(RandomSearcher::new(seed)),
            &options,
        )
        .expect("legal play");
        row(
            &pimc_name,
            "random",
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    if run("naive") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |seed| Informed(pimc::<HiddenInfoSet>(&settings, seed)),
            |_| Informed(Naive(alpha_beta())),
            &options,
        )
        .expect("legal play");
        row(
            &pimc_name,
            &format!("naive alpha-beta d{}", settings.depth),
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    if run("cheat") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |_| Omniscient(alpha_beta()),
            |seed| Informed(pimc::<HiddenInfoSet>(&settings, seed)),
            &options,
        )
        .expect("legal play");
        row(
            &format!("cheating alpha-beta d{}", settings.depth),
            &pimc_name,
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    if run("weighted") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |seed| Informed(WeightedPimc::new(&settings, seed)),
            |seed| Informed(pimc::<HiddenInfoSet>(&settings, seed)),
            &options,
        )
        .expect("legal play");
        row(
            &format!("{pimc_name}, weighted worlds"),
            &format!("{pimc_name}, uniform worlds"),
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    if run("roots") {
        // The same PIMC with the other ways of valuing root moves.
        for other in [RootValues::Bounds, RootValues::Near(0.1), RootValues::Exact] {
            if other == settings.root {
                continue;
            }
            let started = Instant::now();
            let series = play_hidden_series(
                deal,
                |seed| Informed(pimc::<HiddenInfoSet>(&settings, seed)),
                |seed| Informed(pimc_with::<HiddenInfoSet>(&settings, other, seed)),
                &options,
            )
            .expect("legal play");
            row(
                &pimc_name,
                &format!("the same with {} root", root_name(other)),
                &series,
                started.elapsed().as_secs_f64(),
            );
        }
    }
    let timed = SeriesOptions::new(
        settings.deals,
        0,
        Limits::time(Duration::from_millis(settings.move_ms)),
    )
    .with_seed(settings.seed)
    .with_threads(settings.threads)
    .with_max_plies(settings.max_plies);
    let ismcts_name = format!(
        "ISMCTS ({} ms, cutoff {})",
        settings.move_ms, settings.cutoff
    );
    if run("ismcts-random") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |seed| Informed(ismcts(&settings, seed)),
            |seed| Informed(RandomSearcher::new(seed)),
            &timed,
        )
        .expect("legal play");
        row(
            &ismcts_name,
            "random",
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    if run("ismcts-pimc") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |seed| Informed(ismcts(&settings, seed)),
            |seed| Informed(pimc::<HiddenInfoSet>(&settings, seed)),
            &timed,
        )
        .expect("legal play");
        row(
            &ismcts_name,
            &format!(
                "PIMC(alpha-beta, {} worlds, {} root, {} ms)",
                settings.worlds,
                root_name(settings.root),
                settings.move_ms
            ),
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    if run("ismcts-pimc-mcts") {
        let started = Instant::now();
        let series = play_hidden_series(
            deal,
            |seed| Informed(ismcts(&settings, seed)),
            |seed| Informed(pimc_mcts(&settings, seed)),
            &timed,
        )
        .expect("legal play");
        row(
            &ismcts_name,
            &format!(
                "PIMC(MCTS, {} worlds, cutoff {}, {} ms)",
                settings.worlds, settings.cutoff, settings.move_ms
            ),
            &series,
            started.elapsed().as_secs_f64(),
        );
    }
    println!();
    println!("load average at the end: {}", load());
}
