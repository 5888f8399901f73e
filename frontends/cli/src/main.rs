//! The `smith` binary: everything lives in the `smith_cli` library so that the command
//! declarations can also generate the command reference.

fn main() -> std::process::ExitCode {
    smith_cli::main()
}
