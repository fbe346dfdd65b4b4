//! The process environment that makes candle fast on the CPU.

/// The variable that marks a process whose environment is already tuned.
const TUNED: &str = "SELF_PLAY_TUNED";

/// The settings [`tune_environment`] applies where the user has not set
/// them.
pub const TUNED_SETTINGS: [(&str, &str); 3] = [
    ("RAYON_NUM_THREADS", "1"),
    ("MALLOC_MMAP_THRESHOLD_", "268435456"),
    ("MALLOC_TRIM_THRESHOLD_", "1073741824"),
];

/// Starts this program again, in place (`exec`: the same process id and
/// standard streams), with the settings that make networks fast on the
/// CPU, each only where the user has not set it; returns at once if the
/// process already runs with them. Call it first thing in `main`, before
/// any thread starts.
///
/// * `RAYON_NUM_THREADS=1`: one thread per matrix product. Searches and
///   self-play run their own threads; splitting small products over the
///   cores as well made a network 7x slower on single positions and no
///   faster on batches of 64 (two cores, measured).
/// * `MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`: keep freed
///   memory in the process. Each training step allocates tensors of
///   megabytes that glibc would otherwise map and unmap anew; training
///   ran 2.2x faster.
///
/// The allocator reads its settings when the process starts and candle
/// reads the thread count at every product, from any thread, so they
/// cannot be changed in a running program: hence the restart.
///
/// # Errors
///
/// The reason the restart failed (the program then runs as it is). On
/// systems other than Unix it does nothing.
pub fn tune_environment() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if std::env::var_os(TUNED).is_some() {
            return Ok(());
        }
        let exe = std::env::current_exe()?;
        let mut command = std::process::Command::new(exe);
        command.args(std::env::args_os().skip(1)).env(TUNED, "1");
        for (key, value) in TUNED_SETTINGS {
            if std::env::var_os(key).is_none() {
                command.env(key, value);
            }
        }
        // `exec` returns only if it failed.
        Err(command.exec())
    }
    #[cfg(not(unix))]
    {
        Ok(())
    }
}
