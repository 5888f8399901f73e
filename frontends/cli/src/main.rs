//! The `smith` binary: everything lives in the `smith_cli` library so that the command
//! declarations can also generate the command reference. The binary adds what only a process
//! may have: the memory accounting allocator.

/// Every allocation of the process is charged to the innermost memory scope of its thread
/// (spec: Performance and portability → Memory accounting).
#[global_allocator]
static ALLOCATOR: smith_memory::Accounting<std::alloc::System> =
    smith_memory::Accounting::new(std::alloc::System);

fn main() -> std::process::ExitCode {
    let status = smith_cli::main();
    smith_cli::memory_report::write_at_exit();
    status
}
