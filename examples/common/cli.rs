//! Command-line parsing shared by the examples: clap's parser, with the
//! usage line on every error and exit code 2.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

/// Parses the command line; on a bad argument prints clap's message and
/// the usage line to stderr and exits with code 2 (`--help` and
/// `--version` print and exit 0).
pub(crate) fn parse<P: Parser>() -> P {
    P::try_parse().unwrap_or_else(|error| fail::<P>(error))
}

/// Exits with `message` as a bad-argument error (usage line, code 2).
#[allow(dead_code)] // some examples have no checks of their own
pub(crate) fn usage_error<P: CommandFactory>(message: impl std::fmt::Display) -> ! {
    fail::<P>(P::command().error(ErrorKind::ValueValidation, message))
}

fn fail<P: CommandFactory>(error: clap::Error) -> ! {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        error.exit();
    }
    let text = error.render().to_string();
    eprint!("{text}");
    if !text.contains("Usage:") {
        eprintln!("\n{}", P::command().render_usage());
    }
    std::process::exit(2);
}

/// Restarts the process in the environment that makes networks fast on
/// the CPU (see `self_play::tune_environment`), once.
#[allow(dead_code)] // the examples without networks do not call it
pub(crate) fn tune_environment() {
    if let Err(error) = self_play::tune_environment() {
        eprintln!("note: running without the tuned environment ({error})");
    }
}
