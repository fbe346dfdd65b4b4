//! Hidden Jungle: determinization cases of `scenarios.json`, the sampling
//! properties (consistency with the public history, the truth among the
//! worlds, uniformity, no leaks) and inconsistent observations.

use dou_shou_qi::hidden::{
    HiddenError, HiddenInfoSet, HiddenRules, Layout, Matchings, Observation, OpponentModel,
    PieceId, Referee, Reveal, Setup, SoftmaxOpponent,
};
use dou_shou_qi::{Animal, AnimalSet, FailedAttack, Jungle, JungleEvaluator, Move, Rules, Square};
use game_traits::testing::check_information_set;
use game_traits::{Game, InformationSet, Player};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde_json::Value;

fn piece(name: &str) -> PieceId {
    PieceId::new(name.parse::<Square>().unwrap()).expect("a start square")
}

fn animals(letters: &str) -> AnimalSet {
    AnimalSet::from_letters(letters).unwrap()
}

fn layout(letters: &str) -> Layout {
    let animals: Vec<Animal> = letters
        .chars()
        .map(|letter| Animal::from_letter(letter).unwrap())
        .collect();
    Layout::new(animals.try_into().unwrap()).unwrap()
}

fn determinization_cases() -> Vec<Value> {
    let text = std::fs::read_to_string("tests/data/scenarios.json").expect("scenarios.json");
    let data: Value = serde_json::from_str(&text).expect("valid JSON");
    data["determinization_cases"].as_array().unwrap().clone()
}

/// Checks a case's world count and marginals on the worlds given by its
/// `allowed` sets.
fn check_case_counts(case: &Value, matchings: &Matchings, order: &[String]) {
    let id = case["id"].as_str().unwrap();
    assert_eq!(
        matchings.count(),
        case["expected_world_count"].as_u64().unwrap(),
        "{id}"
    );
    let counts = matchings.counts();
    for (name, row) in order.iter().zip(&counts) {
        let expected = case["expected_marginals"][name].as_object().unwrap();
        for animal in Animal::ALL {
            let want = expected
                .get(&animal.letter().to_string())
                .map_or(0.0, |value| value.as_f64().unwrap());
            let got = row[animal.index()] as f64 / matchings.count() as f64;
            assert!(
                (got - want).abs() < 1e-12,
                "{id} {name} {animal}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn determinization_cases_have_the_listed_counts_and_marginals() {
    let cases = determinization_cases();
    assert_eq!(cases.len(), 2);
    for case in &cases {
        let hidden = animals(case["hidden_animals"].as_str().unwrap());
        let allowed = case["allowed"].as_object().unwrap();
        let order: Vec<String> = allowed.keys().cloned().collect();
        let sets: Vec<AnimalSet> = order
            .iter()
            .map(|name| animals(allowed[name].as_str().unwrap()))
            .collect();
        let matchings = Matchings::new(&sets, hidden).unwrap();
        check_case_counts(case, &matchings, &order);
    }
}

#[test]
fn no_information_case_from_a_fresh_information_set() {
    let case = &determinization_cases()[0];
    assert_eq!(case["id"], "no_information");
    let info = HiddenInfoSet::new(
        Player::First,
        HiddenRules::default(),
        Layout::standard(Player::First),
    )
    .unwrap();
    assert_eq!(info.world_count(), 40_320);
    for (id, row) in info.marginals() {
        assert_eq!(id.owner(), Player::Second);
        let name = id.start().to_string();
        for animal in Animal::ALL {
            let want = case["expected_marginals"][&name][&animal.letter().to_string()]
                .as_f64()
                .unwrap();
            assert!((row[animal.index()] - want).abs() < 1e-12);
        }
        assert_eq!(info.allowed(id), AnimalSet::ALL);
    }
}

/// A real game that produces the `captured_dog_plus_fight` case: the rat of
/// c7 swims, the a9 lion jumps b7-b3, the f8 dog is taken and revealed, and
/// the hidden e7 piece takes the first player's wolf on d7.
#[test]
fn captured_dog_plus_fight_case_from_a_played_game() {
    let case = &determinization_cases()[1];
    assert_eq!(case["id"], "captured_dog_plus_fight");
    let mut rules = Rules::hidden_default();
    rules.equal_rank_mutual_capture = false;
    let hidden_rules = HiddenRules::new(rules, Reveal::LoserOnly, Setup::Chosen);
    // Slots: a1 g1 b2 f2 a3 c3 e3 g3 and a7 c7 e7 g7 b8 f8 a9 g9.
    let mine = layout("TECDRWLP");
    let theirs = layout("CREWPDLT");
    let mut referee = Referee::new(hidden_rules, [mine, theirs]).unwrap();
    let script = [
        "c3d3", "c7c6", "d3d4", "a7a6", "d4d5", "a9a8", "d5d6", "a8a7", "e3f3", "a7b7", "f3f7",
        "b7b3", "f7f8", "g9g8", "d6d7", "e7d7",
    ];
    for name in script {
        referee
            .play(name.parse().unwrap())
            .unwrap_or_else(|error| panic!("{name}: {error}"));
    }
    let info = referee.information_set(Player::First);
    assert_eq!(
        info.world_count(),
        case["expected_world_count"].as_u64().unwrap()
    );
    assert_eq!(
        info.hidden_animals(),
        animals(case["hidden_animals"].as_str().unwrap())
    );
    let allowed = case["allowed"].as_object().unwrap();
    for (name, letters) in allowed {
        assert_eq!(
            info.allowed(piece(name)),
            animals(letters.as_str().unwrap()),
            "allowed set of {name}"
        );
    }
    assert_eq!(info.known_animal(piece("f8")), Some(Animal::Dog));
    for (id, row) in info.marginals() {
        let name = id.start().to_string();
        for animal in Animal::ALL {
            let want = case["expected_marginals"][&name]
                .get(animal.letter().to_string())
                .map_or(0.0, |value| value.as_f64().unwrap());
            assert!(
                (row[animal.index()] - want).abs() < 1e-12,
                "{name} {animal}: {} vs {want}",
                row[animal.index()]
            );
        }
    }
    assert!(info.is_consistent(&theirs));
    assert!(info.consistent_layouts().contains(&theirs));
}

/// The Hidden Jungle rules numbered by `index`: every combination of the
/// reveal policy, equal-rank rule, failed-attack policy and setup, with a
/// few other switches.
fn rules_for(index: u16) -> HiddenRules {
    let mut rules = Rules::hidden_default();
    rules.equal_rank_mutual_capture = index & 1 != 0;
    rules.failed_attack = if index & 2 != 0 {
        FailedAttack::Bounce
    } else {
        FailedAttack::AttackerDies
    };
    rules.dog_over_wolf = index & 32 != 0;
    rules.traps_any_side = index & 64 != 0;
    rules.trap_attacker_zero = index & 128 != 0;
    rules.elephant_captures_rat = index & 256 != 0;
    let reveal = if index & 4 != 0 {
        Reveal::Both
    } else {
        Reveal::LoserOnly
    };
    let setup = match (index >> 3) % 4 {
        0 | 1 => Setup::Random,
        2 => Setup::Chosen,
        _ => Setup::Standard,
    };
    HiddenRules::new(rules, reveal, setup)
}

/// A game of up to `plies` random true-legal moves, attacks favoured so
/// that fights happen.
fn random_game(rules: HiddenRules, seed: u64, plies: usize) -> Referee {
    let mut referee = Referee::random(rules, seed);
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5eed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if referee.outcome().is_some() {
            break;
        }
        referee.world().legal_moves(&mut moves);
        let world = referee.world();
        let attacks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| world.piece_at(mv.to()).is_some())
            .collect();
        let mv = if !attacks.is_empty() && rng.random_bool(0.5) {
            attacks[rng.random_range(..attacks.len())]
        } else {
            moves[rng.random_range(..moves.len())]
        };
        referee.play(mv).unwrap();
        assert_has_a_move_unless_decided(referee.world());
    }
    referee
}

/// With attacks always legal, a side with a piece always has a move: a
/// game only ends by den, extinction or a draw rule.
fn assert_has_a_move_unless_decided(world: &Jungle) {
    let den_entered = Player::BOTH
        .into_iter()
        .any(|side| world.piece_at(Square::den(side)).is_some());
    let extinct = Player::BOTH
        .into_iter()
        .any(|side| world.pieces(side).next().is_none());
    if !den_entered && !extinct {
        let free = world
            .clone()
            .with_rules_changed(world.rules().without_draws());
        assert!(free.count_moves() > 0, "{world}: no move");
    }
}

/// Replays the public moves in the world where `player` has its own
/// setup and the opponent has `theirs`.
fn replay(info: &HiddenInfoSet, theirs: Layout, observations: &[Observation]) -> Referee {
    let mut layouts = [info.own_layout(); 2];
    layouts[info.player().opponent().index()] = theirs;
    let mut referee = Referee::new(*info.rules(), layouts).unwrap();
    for observation in observations {
        referee.play(observation.mv).unwrap();
    }
    referee
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    /// Over random games under random Hidden Jungle rules: the truth is a
    /// consistent world; every sampled world reproduces every observation
    /// when the public history is replayed in it, and is the same position
    /// as the information set's world; the information set has the moves of
    /// its worlds; and an information set built from the observations of a
    /// different truth that fits them is identical, with identical samples.
    #[test]
    fn sampled_worlds_reproduce_the_public_history(seed in any::<u64>(), plies in 0usize..160, index in any::<u16>()) {
        let rules = rules_for(index);
        let referee = random_game(rules, seed, plies);
        let observations = referee.observations().to_vec();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for player in Player::BOTH {
            let info = referee.information_set(player);
            let truth = referee.layout(player.opponent());
            prop_assert!(info.is_consistent(&truth));
            prop_assert!(info.world_count() >= 1);
            prop_assert_eq!(&info.world(&truth).unwrap(), referee.world());
            if info.world_count() <= 3000 {
                let all = info.consistent_layouts();
                prop_assert_eq!(all.len() as u64, info.world_count());
                prop_assert!(all.contains(&truth));
            }
            if rules.setup == Setup::Standard {
                prop_assert_eq!(info.world_count(), 1);
            }
            if let Err(violation) = check_information_set(&info, 8, &mut rng) {
                return Err(TestCaseError::fail(violation.to_string()));
            }
            for _ in 0..3 {
                let theirs = info.sample_layout(&mut rng);
                prop_assert!(info.is_consistent(&theirs));
                let again = replay(&info, theirs, &observations);
                prop_assert_eq!(again.observations(), &observations[..]);
                prop_assert_eq!(again.world(), &info.world(&theirs).unwrap());
                // No leaks: the other truth gives the very same knowledge.
                let other = again.information_set(player);
                prop_assert_eq!(format!("{other:?}"), format!("{info:?}"));
                let mut first = Pcg64Mcg::seed_from_u64(seed ^ 1);
                let mut second = Pcg64Mcg::seed_from_u64(seed ^ 1);
                for _ in 0..4 {
                    prop_assert_eq!(info.sample_layout(&mut first), other.sample_layout(&mut second));
                }
            }
        }
    }
}

/// The upper tail `Q(a, x)` of the regularized gamma function: the p-value
/// of a chi-square statistic `2x` with `2a` degrees of freedom. Series for
/// `x < a + 1`, continued fraction (modified Lentz) otherwise.
fn upper_gamma_q(a: f64, x: f64) -> f64 {
    fn ln_gamma(x: f64) -> f64 {
        // Lanczos approximation, g = 7, n = 9.
        const COEFFICIENTS: [f64; 9] = [
            0.999_999_999_999_809_9,
            676.520_368_121_885_1,
            -1_259.139_216_722_402_8,
            771.323_428_777_653_1,
            -176.615_029_162_140_6,
            12.507_343_278_686_905,
            -0.138_571_095_265_720_12,
            9.984_369_578_019_572e-6,
            1.505_632_735_149_311_6e-7,
        ];
        let x = x - 1.0;
        let t = x + 7.5;
        let series = COEFFICIENTS[1..]
            .iter()
            .enumerate()
            .fold(COEFFICIENTS[0], |sum, (i, c)| {
                sum + c / (x + i as f64 + 1.0)
            });
        0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
    }
    let prefactor = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let mut term = 1.0 / a;
        let mut sum = term;
        for n in 1..1000 {
            term *= x / (a + f64::from(n));
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - sum * prefactor
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        prefactor * h
    }
}

/// Pearson's chi-square test of `counts` against the uniform distribution:
/// the p-value.
fn chi_square_uniform_p_value(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    let statistic: f64 = counts
        .iter()
        .map(|&observed| (observed as f64 - expected).powi(2) / expected)
        .sum();
    let degrees = (counts.len() - 1) as f64;
    upper_gamma_q(degrees / 2.0, statistic / 2.0)
}

#[test]
fn chi_square_p_values_match_the_tables() {
    // Critical values at 5% and 0.1% (standard tables).
    for (degrees, critical, p) in [
        (1.0, 3.841, 0.05),
        (10.0, 18.307, 0.05),
        (10.0, 29.588, 0.001),
        (30.0, 43.773, 0.05),
        (100.0, 124.342, 0.05),
    ] {
        let q = upper_gamma_q(degrees / 2.0, critical / 2.0);
        assert!((q - p).abs() < p * 0.01, "df {degrees}: {q}");
    }
}

/// Significance level of the uniformity tests. The samplers are seeded, so
/// each test's result is fixed: it cannot fail by chance on a rerun; and
/// the same test rejects the naive sampler (below), so it has the power not
/// to pass by chance.
const SIGNIFICANCE: f64 = 1e-3;

/// Drawing each piece's animal uniformly among its allowed, still free
/// animals (restarting on a dead end): the sampler the rules text warns
/// against, which is not uniform over worlds.
fn naive_sample(allowed: &[AnimalSet], rng: &mut Pcg64Mcg) -> Vec<Animal> {
    'retry: loop {
        let mut used = AnimalSet::EMPTY;
        let mut out = Vec::new();
        for set in allowed {
            let free: Vec<Animal> = set.iter().filter(|a| !used.contains(*a)).collect();
            if free.is_empty() {
                continue 'retry;
            }
            let animal = free[rng.random_range(..free.len())];
            used = used.with(animal);
            out.push(animal);
        }
        return out;
    }
}

#[test]
fn sampling_is_uniform_over_worlds_and_the_test_rejects_the_naive_sampler() {
    // 8 worlds; the naive sampler gives 4 of them 1/12 and 4 of them 1/6.
    let hidden = animals("RCDW");
    let allowed = [animals("RCD"), animals("RC"), hidden, hidden];
    let matchings = Matchings::new(&allowed, hidden).unwrap();
    let worlds = matchings.all();
    assert_eq!(worlds.len(), 8);
    let draws = 40 * 1000;
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut uniform = vec![0u64; worlds.len()];
    let mut naive = vec![0u64; worlds.len()];
    for _ in 0..draws {
        let world = matchings.sample(&mut rng).unwrap();
        uniform[worlds.iter().position(|w| *w == world).unwrap()] += 1;
        let world = naive_sample(&allowed, &mut rng);
        naive[worlds.iter().position(|w| *w == world).unwrap()] += 1;
    }
    let p_uniform = chi_square_uniform_p_value(&uniform);
    let p_naive = chi_square_uniform_p_value(&naive);
    assert!(
        p_uniform > SIGNIFICANCE,
        "uniform sampler rejected: p = {p_uniform}, {uniform:?}"
    );
    assert!(
        p_naive < SIGNIFICANCE,
        "naive sampler not rejected: p = {p_naive}, {naive:?}"
    );
}

#[test]
fn information_set_sampling_is_uniform_on_a_small_case() {
    // The first seeded game whose information set (fights reveal only the
    // loser) has 12 to 150 consistent worlds, with at least two different
    // proper constraints on hidden pieces.
    let rules = HiddenRules::new(Rules::hidden_default(), Reveal::LoserOnly, Setup::Random);
    let (info, worlds) = (0..2000)
        .find_map(|seed| {
            let info = random_game(rules, seed, 200).information_set(Player::First);
            let hidden = info.hidden_animals();
            let mut constraints: Vec<AnimalSet> = info
                .hidden_pieces()
                .iter()
                .map(|&id| info.allowed(id))
                .filter(|&set| set != hidden && set.len() > 1)
                .collect();
            constraints.sort_by_key(|set| set.0);
            constraints.dedup();
            let count = info.world_count();
            ((12..=150).contains(&count) && constraints.len() >= 2 && info.outcome().is_none())
                .then(|| (info.clone(), info.consistent_layouts()))
        })
        .expect("some seed gives a small case");
    let mut rng = Pcg64Mcg::seed_from_u64(77);
    let draws = 400 * worlds.len();
    let mut counts = vec![0u64; worlds.len()];
    for _ in 0..draws {
        let layout = info.sample_layout(&mut rng);
        counts[worlds
            .iter()
            .position(|w| *w == layout)
            .expect("a consistent world")] += 1;
    }
    let p = chi_square_uniform_p_value(&counts);
    assert!(
        p > SIGNIFICANCE,
        "p = {p} over {} worlds: {counts:?}",
        worlds.len()
    );
    // The naive sampler, on the same case and as many draws, is rejected.
    let hidden = info.hidden_pieces();
    let allowed: Vec<AnimalSet> = hidden.iter().map(|&id| info.allowed(id)).collect();
    let mut naive = vec![0u64; worlds.len()];
    for _ in 0..draws {
        let assignment = naive_sample(&allowed, &mut rng);
        let index = worlds
            .iter()
            .position(|w| {
                hidden
                    .iter()
                    .zip(&assignment)
                    .all(|(id, &a)| w.animal(id.slot()) == a)
            })
            .expect("a consistent world");
        naive[index] += 1;
    }
    let p_naive = chi_square_uniform_p_value(&naive);
    assert!(
        p_naive < SIGNIFICANCE,
        "naive sampler not rejected: p = {p_naive}"
    );
    // The marginals agree with the enumeration.
    for (id, row) in info.marginals() {
        for animal in Animal::ALL {
            let share = worlds
                .iter()
                .filter(|layout| layout.animal(id.slot()) == animal)
                .count() as f64
                / worlds.len() as f64;
            assert!((row[animal.index()] - share).abs() < 1e-12);
        }
    }
}

#[test]
fn inconsistent_observations_are_refused_without_change() {
    let mut referee = Referee::random(HiddenRules::default(), 3);
    let mut moves = Vec::new();
    referee.world().legal_moves(&mut moves);
    let observation = referee.play(moves[0]).unwrap();
    let fresh = HiddenInfoSet::new(
        Player::Second,
        HiddenRules::default(),
        referee.layout(Player::Second),
    )
    .unwrap();
    let variants: Vec<Observation> = vec![
        Observation {
            mover: Player::Second,
            ..observation.clone()
        },
        Observation {
            piece: piece("g1"),
            ..observation.clone()
        },
        Observation {
            revealed: vec![(piece("a1"), Animal::Tiger)],
            ..observation.clone()
        },
        Observation {
            outcome: Some(game_traits::Outcome::Draw),
            ..observation.clone()
        },
    ];
    for bad in variants {
        let mut info = fresh.clone();
        let error = info.observe(&bad).unwrap_err();
        assert!(
            matches!(error, HiddenError::InconsistentObservation { ply: 0, .. }),
            "{error}"
        );
        assert_eq!(format!("{info:?}"), format!("{fresh:?}"));
    }
    let mut info = fresh.clone();
    info.observe(&observation).unwrap();
    // A move by the wrong side, now.
    assert!(info.observe(&observation).is_err());
}

#[test]
fn referee_refuses_illegal_moves_and_bad_rules() {
    let mut referee = Referee::random(HiddenRules::default(), 1);
    assert!(matches!(
        referee.play("a1a2".parse::<Move>().unwrap().rotated()),
        Err(HiddenError::IllegalMove { .. })
    ));
    let mut rules = HiddenRules::default();
    rules.rules.failed_attack = FailedAttack::Illegal;
    assert!(matches!(
        rules.check(),
        Err(HiddenError::UnsupportedRules { .. })
    ));
    assert!(matches!(
        Referee::try_random(rules, 1),
        Err(HiddenError::UnsupportedRules { .. })
    ));
    let mut rules = HiddenRules::default();
    rules.rules.rat_capture_across_bank = true;
    assert!(matches!(
        rules.check(),
        Err(HiddenError::UnsupportedRules { .. })
    ));
    let standard = HiddenRules::new(Rules::hidden_default(), Reveal::LoserOnly, Setup::Standard);
    assert!(matches!(
        Referee::new(
            standard,
            [layout("RCDWPTLE"), Layout::standard(Player::Second)]
        ),
        Err(HiddenError::NotStandard { .. })
    ));
    assert!(matches!(
        Layout::new([Animal::Rat; 8]),
        Err(HiddenError::NotAPermutation { .. })
    ));
}

/// An opponent model that likes every move the same: the weighted
/// worlds are then the uniform ones.
struct Indifferent;

impl OpponentModel for Indifferent {
    fn move_weight(&self, _world: &Jungle, _mv: Move) -> f64 {
        1.0
    }
}

#[test]
fn opponent_models_reweight_consistent_worlds_only() {
    // A seeded game with a few hundred worlds at most: each world is replayed.
    let rules = HiddenRules::new(Rules::hidden_default(), Reveal::Both, Setup::Random);
    let info = (0..500)
        .map(|seed| random_game(rules, seed, 80).information_set(Player::First))
        .find(|info| (2..=200).contains(&info.world_count()) && info.outcome().is_none())
        .expect("a small case");
    let uniform = info.weighted(&Indifferent);
    let weights = uniform.weights();
    assert_eq!(weights.len() as u64, info.world_count());
    for (layout, weight) in &weights {
        assert!(info.is_consistent(layout));
        assert!((weight - 1.0 / weights.len() as f64).abs() < 1e-12);
    }
    let model = SoftmaxOpponent {
        evaluator: JungleEvaluator::default(),
        temperature: 0.2,
    };
    let weighted = info.weighted(&model);
    let total: f64 = weighted.weights().iter().map(|(_, w)| w).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    for _ in 0..20 {
        let layout = weighted.sample_layout(&mut rng);
        assert!(info.is_consistent(&layout));
    }
    if let Err(violation) = check_information_set(&weighted, 8, &mut rng) {
        panic!("{violation}");
    }
}

#[test]
fn inconsistent_layouts_get_no_world() {
    let case_rules = HiddenRules::new(Rules::hidden_default(), Reveal::LoserOnly, Setup::Random);
    let referee = random_game(case_rules, 5, 80);
    let info = referee.information_set(Player::First);
    let truth = referee.layout(Player::Second);
    assert!(info.world(&truth).is_ok());
    // Some permutation of the truth does not fit, unless nothing is known.
    if info.world_count() < 40_320 {
        let mut animals = truth.animals();
        let wrong = (0..8)
            .flat_map(|i| (0..8).map(move |j| (i, j)))
            .find_map(|(i, j)| {
                animals.swap(i, j);
                let layout = Layout::new(animals).unwrap();
                animals.swap(i, j);
                (!info.is_consistent(&layout)).then_some(layout)
            })
            .expect("some swap breaks a constraint");
        assert!(matches!(
            info.world(&wrong),
            Err(HiddenError::InconsistentLayout { .. })
        ));
    }
}

#[cfg(feature = "serde")]
#[test]
fn referee_and_information_sets_round_trip_through_serde() {
    let referee = random_game(rules_for(5), 9, 70);
    let json = serde_json::to_string(&referee).unwrap();
    let back: Referee = serde_json::from_str(&json).unwrap();
    assert_eq!(back.observations(), referee.observations());
    assert_eq!(back.world(), referee.world());
    let info = referee.information_set(Player::Second);
    let json = serde_json::to_string(&info).unwrap();
    let back: HiddenInfoSet = serde_json::from_str(&json).unwrap();
    assert_eq!(format!("{back:?}"), format!("{info:?}"));
    // A tampered log is refused: the first move made by the wrong player.
    let mut value: Value = serde_json::from_str(&json).unwrap();
    value["observations"][0]["mover"] = Value::String("Second".to_string());
    let error = serde_json::from_value::<HiddenInfoSet>(value).unwrap_err();
    assert!(error.to_string().contains("inconsistent"), "{error}");
}
