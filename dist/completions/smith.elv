
use builtin;
use str;

set edit:completion:arg-completer[smith] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'smith'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'smith'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand -m 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else the model the session last recorded'
            cand --model 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else the model the session last recorded'
            cand --session 'Open the existing session ID (a unique prefix is enough; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project). Held by another Smith process, it opens read-only'
            cand --script 'Play this provider script (scripted provider only), as `smith eval --script` does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand --continue 'Continue the session most recently written among those started in this directory, else in the nearest directory above it in its project (same as --session last)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand eval 'Run one agent turn without the terminal UI and print its output'
            cand compact 'Compact a session now: the model summarizes its older context, the recent part stays verbatim, and later requests start from the summary (history is kept)'
            cand replay 'Replay a recorded session from its file alone — no provider, nothing run — as its live runs showed it (plain, or the intents as JSON lines)'
            cand undo 'Take back the latest change a session''s tool batch made to the working tree (files written by any tool, `bash` included), restoring the snapshot before it'
            cand redo 'Replay what the latest undo took back'
            cand restore 'Restore the working tree to a snapshot, or to its state at an entry of the session (time travel); recorded, so undo takes it back'
            cand diff 'Show what changed in the working tree between two snapshots or entries, as a git diff (or --stat, --json)'
            cand rpc 'Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts, queue, abort, observation from durable positions, inspection'
            cand mcp 'Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith: its tools with durable effects, sessions as resources, an agent turn as a tool'
            cand acp 'Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission requests, modes'
            cand docs 'Read Smith''s documentation, offline: list, search and get documents'
            cand config 'Show, check and set configuration; every value with its source'
            cand sessions 'Inspect recorded sessions (list, search, read, verify, follow, the request an attempt sent), fork one, select the branch a session continues on, or edit what later requests show the model'
            cand effects 'List a session''s effects whose outcome is unknown (a crash cut them off), with their evidence, and record your verdict on one'
            cand trust 'Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or revoke that trust)'
            cand doctor 'Report what this machine offers Smith: the OS sandbox the programs tools run start in (the kernel''s Landlock, whether the configured mode is enforced, what each mode does)'
            cand tools 'List the active tools: name, plugin, description, input schema'
            cand plugins 'List the plugins: id, version, world, grants, state'
            cand auth 'Check provider credentials without a model request, and store a key (typed with echo off, or piped on stdin)'
            cand secrets 'Register secrets that never reach a provider, a session file or any output (stored with mode 0600, values never printed), and list every secret a run redacts'
            cand models 'List the model catalog: limits, capabilities, prices and where each figure comes from'
            cand completions 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;eval'= {
            cand -m 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else (continuing a session) the model the session last recorded'
            cand --model 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else (continuing a session) the model the session last recorded'
            cand --thinking 'The thinking level to ask for: off, minimal, low, medium, high, xhigh or max (the model''s catalog record must list it); default: the `thinking` setting, else the model''s own default'
            cand --session 'Append to the existing session ID (a unique prefix is enough; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of creating one'
            cand --session-id 'Record into session ID (a UUID you choose), creating it if it does not exist yet and continuing it if it does: with --dedup-key, a retried first prompt is one admission'
            cand --dedup-key 'Deduplicate this submission with KEY (needs --session or --session-id): if the session already admitted KEY with the same model and prompt, nothing runs and that submission''s receipt and recorded answer are printed; KEY with other content fails (exit 2)'
            cand --script 'Play this provider script (scripted provider only); the model name becomes its label'
            cand --image 'Attach an image to the prompt (PNG, JPEG, GIF or WebP, at most 3.75 MiB each and 8 MiB in all, at most 16); repeatable. Sent only to a model whose catalog record says image input. `@shot.png` in the prompt attaches an image inside the working directory too'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Emit LF-delimited JSON records on stdout instead of plain text'
            cand --continue 'Continue the session most recently written among those started in this directory, else in the nearest directory above it in its project (same as --session last)'
            cand --no-session 'Record into a temporary session store, removed when the run succeeds'
            cand --stdin 'Append standard input to the prompt as a fenced block (UTF-8, at most 1 MiB); without it stdin is not read when a prompt is given'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;compact'= {
            cand --instructions 'What the summary should focus on (given to the compaction plugin)'
            cand --keep-tokens 'Keep about N estimated tokens of recent context verbatim (default: the `compaction.keep-tokens` setting)'
            cand -m 'The model that writes the summary, as PROVIDER/MODEL or an alias or group; default: the `model` setting, else the model the session last recorded'
            cand --model 'The model that writes the summary, as PROVIDER/MODEL or an alias or group; default: the `model` setting, else the model the session last recorded'
            cand --script 'Play this provider script (scripted provider only)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Emit the intents as LF-delimited JSON records on stdout instead of plain text'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;replay'= {
            cand --turns 'Replay only turns A to B (from 1; `3` alone is `3..3`, `2..` to the last)'
            cand --branch 'Replay the branch ending at entry ENTRY (an entry id, as `smith sessions get` lists them) instead of the session''s selected branch'
            cand --speed 'How fast: `real` (as recorded, gaps over 2 s shortened to 2 s), N (N times faster, e.g. 10 or 0.5) or `instant` (the default when stdout is not a terminal)'
            cand --in 'With --execute: run in directory DIR as it is, instead of a scratch copy of the snapshot taken at the start of the range (DIR is changed by the calls)'
            cand --report 'With --execute: also write the report as JSON lines to FILE'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Emit the intents as LF-delimited JSON records on stdout instead of plain text'
            cand --tui 'Show the replay in the terminal UI (read-only; leave with Ctrl+C twice). Paced as recorded unless --speed says otherwise'
            cand --execute 'Run the recorded tool calls again and report, per effect, whether it came out the same'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;undo'= {
            cand --session 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --turn 'Take back (or replay) every latest step of the same turn'
            cand --snapshot-first 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing'
            cand --json 'Print the result as one JSON record'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;redo'= {
            cand --session 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --turn 'Take back (or replay) every latest step of the same turn'
            cand --snapshot-first 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing'
            cand --json 'Print the result as one JSON record'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;restore'= {
            cand --session 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --snapshot-first 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing'
            cand --json 'Print the result as one JSON record'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;diff'= {
            cand --session 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --stat 'git''s `--stat` summary instead of the patch'
            cand --json 'One JSON record with every file''s change'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;rpc'= {
            cand -m 'The model sessions use unless a submission names one (as the `model` setting); `smith -m MODEL rpc` gives it too'
            cand --model 'The model sessions use unless a submission names one (as the `model` setting); `smith -m MODEL rpc` gives it too'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;mcp'= {
            cand -m 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too'
            cand --model 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too'
            cand --session 'Record tool effects in this existing session (an id or unique prefix; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of a new one'
            cand --script 'Play this provider script in `smith_run` turns (scripted provider only); the model name becomes its label'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand serve 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)'
            cand add 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL'
            cand list 'List the MCP servers you added or declared in the configuration, each with its state'
            cand get 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed'
            cand remove 'Remove an MCP server; its tools are no longer offered'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;mcp;serve'= {
            cand -m 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too'
            cand --model 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too'
            cand --session 'Record tool effects in this existing session (an id or unique prefix; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of a new one'
            cand --script 'Play this provider script in `smith_run` turns (scripted provider only); the model name becomes its label'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;mcp;add'= {
            cand -e 'A variable set for the server (repeatable); its value is never shown'
            cand --env 'A variable set for the server (repeatable); its value is never shown'
            cand --cwd 'The server''s working directory, relative to the session''s'
            cand --timeout 'How long it may take to answer `initialize` and `tools/list` (default 30, at most 600)'
            cand --call-timeout 'How long it may stay silent during a tool call, its progress notifications counting as speech (default 300, at most 3600)'
            cand --writable-root 'A directory the server''s program may write beneath besides the project (repeatable)'
            cand --url 'The Streamable HTTP endpoint of a server that is not a program'
            cand --header 'A header sent with each request to --url (repeatable; kept in plain text with the server''s entry, so give secrets with --secret)'
            cand --secret 'A registered secret (smith secrets add NAME) Smith sends to --url''s host as `Authorization: Bearer …`, or in HEADER'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --network 'Let the server''s program reach the network although the sandbox denies it'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;mcp;list'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per server'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;mcp;get'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;mcp;remove'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;mcp;help'= {
            cand serve 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)'
            cand add 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL'
            cand list 'List the MCP servers you added or declared in the configuration, each with its state'
            cand get 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed'
            cand remove 'Remove an MCP server; its tools are no longer offered'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;mcp;help;serve'= {
        }
        &'smith;mcp;help;add'= {
        }
        &'smith;mcp;help;list'= {
        }
        &'smith;mcp;help;get'= {
        }
        &'smith;mcp;help;remove'= {
        }
        &'smith;mcp;help;help'= {
        }
        &'smith;acp'= {
            cand -m 'The model sessions use unless the editor picks one (as the `model` setting); `smith -m MODEL acp` gives it too'
            cand --model 'The model sessions use unless the editor picks one (as the `model` setting); `smith -m MODEL acp` gives it too'
            cand --script 'Play this provider script in every prompt''s turn (scripted provider only); the model name picks nothing then'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;docs'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List every document: id, kind and title, ordered by id'
            cand search 'Search the documentation; results are ranked by relevance, ties ordered by id'
            cand man 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list'
            cand get 'Print one document, or a window of its lines'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;docs;list'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Emit one JSON record per document'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;docs;search'= {
            cand --limit 'Hits per page (1 to 100)'
            cand --cursor 'Continue after the previous page (the cursor it printed)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Emit one JSON record per hit, then a `page` record'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;docs;man'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --list 'List the page names instead'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;docs;get'= {
            cand --lines 'Body lines A..B, 1-based and inclusive (`A..` runs to the end; `A` is one line)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Emit the document as one JSON record'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;docs;help'= {
            cand list 'List every document: id, kind and title, ordered by id'
            cand search 'Search the documentation; results are ranked by relevance, ties ordered by id'
            cand man 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list'
            cand get 'Print one document, or a window of its lines'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;docs;help;list'= {
        }
        &'smith;docs;help;search'= {
        }
        &'smith;docs;help;man'= {
        }
        &'smith;docs;help;get'= {
        }
        &'smith;docs;help;help'= {
        }
        &'smith;config'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Print every setting (or KEY) with its resolved value and source'
            cand check 'Validate every configuration layer and report the first problem'
            cand set 'Write one setting to the user configuration (or the project''s), keeping comments'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;config;show'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per setting: `key`, `value`, `source`, `level`'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;config;check'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;config;set'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --project 'Write to the project''s `.smith/config.kdl` instead'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;config;help'= {
            cand show 'Print every setting (or KEY) with its resolved value and source'
            cand check 'Validate every configuration layer and report the first problem'
            cand set 'Write one setting to the user configuration (or the project''s), keeping comments'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;config;help;show'= {
        }
        &'smith;config;help;check'= {
        }
        &'smith;config;help;set'= {
        }
        &'smith;config;help;help'= {
        }
        &'smith;sessions'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt''s first line)'
            cand grep 'Search recorded messages and tool output with a regular expression'
            cand get 'Print the entries of one session, a bounded page at a time (by id, or --branch)'
            cand export 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority'
            cand import 'Import a session file — Smith''s own export, or Codex CLI, Claude Code or pi — as a session; prints its id'
            cand fork 'Copy a session''s history up to an entry into a new session, published atomically; prints the new session''s id'
            cand edit 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content'
            cand select 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)'
            cand receipts 'List a session''s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone'
            cand watch 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)'
            cand verify 'Read a whole session and check every frame, record and index; exit 3 on damage'
            cand delete 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references'
            cand prune 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;sessions;list'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per session'
            cand --here 'Only the sessions started in this directory (what `smith eval --continue` picks from first; with none here it continues the nearest directory above it in its project)'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;grep'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per matching line'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;get'= {
            cand --limit 'Entries per page (1 to 1000)'
            cand --cursor 'Continue after this entry id (the cursor the previous page printed)'
            cand --request 'Instead of entries, the effective request of one attempt — its entry id as the page lists it, or TURN.ROUND.ATTEMPT (e.g. 1.2.1): the instructions, tool definitions and context exactly as the provider plugin received them, rebuilt from the session file alone and checked against the SHA-256 recorded at dispatch. Edited items show the edit; the entries themselves keep their original content'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per entry, then a `page` record'
            cand --branch 'Only the selected branch, from its leaf toward the root (newest first); the cursor then names the entry whose parent the next page starts at'
            cand --usage 'Also account for the whole session, whatever the page: usage and cost per attempt and in total, and the memory each turn allocated (reads every attempt, so it costs more as the session grows)'
            cand --wire 'With --request: the HTTP request instead (method, path, headers, body), encoded again by the provider plugin generation that sent it — byte for byte what went out, without the credential header. Nothing is sent and no credential is read'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;export'= {
            cand --html 'Write one self-contained HTML page instead — the selected branch''s conversation with collapsible thinking, tool calls with their results, the diffs of the working-tree changes, usage and cost — to FILE (default: stdout). The page loads and runs nothing'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --branch 'Only the selected branch, from its leaf toward the root (newest first, as `get --branch` pages it)'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;import'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;fork'= {
            cand --at 'The fork point: the new session holds entries 1..=ENTRY with ENTRY selected (default: the selected leaf)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Print a JSON record instead of the bare id'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;edit'= {
            cand --omit 'Leave this message or tool result out of what the model sees (repeatable). A tool call''s message goes together with all of its results'
            cand --replace 'Show the model FILE''s text instead of this message''s text or tool result''s output (repeatable; `-` reads standard input). A message keeps its tool calls'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;select'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;receipts'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per submission: `submission`, `admitted_in`, `dedup_key`, `model`, `state` (`admitted` or `terminal`), `stop_reason`, `end`, `error`, `answer`'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;watch'= {
            cand --from 'The first entry to print (default 1: the whole history); the next entry id to be committed prints only what is new'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per entry, as `get --json` prints them'
            cand --until-idle 'Stop once every committed entry is printed and no process is writing the session'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;verify'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;delete'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --dry-run 'List what would be removed, and remove nothing'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;prune'= {
            cand --older-than 'Remove the sessions last written longer ago than this: a number and a unit, such as `30d`, `2w`, `12h`, `90m`, `6 months`, `1y`'
            cand --keep 'Keep the N most recently written sessions whatever their age'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --dry-run 'List what would be removed, and remove nothing'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;sessions;help'= {
            cand list 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt''s first line)'
            cand grep 'Search recorded messages and tool output with a regular expression'
            cand get 'Print the entries of one session, a bounded page at a time (by id, or --branch)'
            cand export 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority'
            cand import 'Import a session file — Smith''s own export, or Codex CLI, Claude Code or pi — as a session; prints its id'
            cand fork 'Copy a session''s history up to an entry into a new session, published atomically; prints the new session''s id'
            cand edit 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content'
            cand select 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)'
            cand receipts 'List a session''s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone'
            cand watch 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)'
            cand verify 'Read a whole session and check every frame, record and index; exit 3 on damage'
            cand delete 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references'
            cand prune 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;sessions;help;list'= {
        }
        &'smith;sessions;help;grep'= {
        }
        &'smith;sessions;help;get'= {
        }
        &'smith;sessions;help;export'= {
        }
        &'smith;sessions;help;import'= {
        }
        &'smith;sessions;help;fork'= {
        }
        &'smith;sessions;help;edit'= {
        }
        &'smith;sessions;help;select'= {
        }
        &'smith;sessions;help;receipts'= {
        }
        &'smith;sessions;help;watch'= {
        }
        &'smith;sessions;help;verify'= {
        }
        &'smith;sessions;help;delete'= {
        }
        &'smith;sessions;help;prune'= {
        }
        &'smith;sessions;help;help'= {
        }
        &'smith;effects'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per effect'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand reconcile 'Record your verdict on an effect whose outcome is unknown'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;effects;reconcile'= {
            cand --note 'Why: what you checked (kept with the verdict; at most 4096 bytes)'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;effects;help'= {
            cand reconcile 'Record your verdict on an effect whose outcome is unknown'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;effects;help;reconcile'= {
        }
        &'smith;effects;help;help'= {
        }
        &'smith;trust'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --revoke 'Stop trusting the project instead'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;doctor'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'Print one JSON record instead of the report'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;tools'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;tools;list'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per tool: `name`, `plugin`, `description`, `input_schema`, `offered` (whether a run from here offers it) and `withheld` (why not, or null)'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;tools;help'= {
            cand list 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;tools;help;list'= {
        }
        &'smith;tools;help;help'= {
        }
        &'smith;plugins'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'One line per plugin, in load order'
            cand install 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id'
            cand uninstall 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;plugins;list'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per plugin: `id`, `version`, `world`, `grants`, `state`, `tools`, `origin`, `disabled_by` when disabled, `refused_grants` (grant and why) for requested grants this directory does not give, such as `process.exec` with process.allow false, and `asked_grants` for those given only per use, on your answer, such as `process.exec` in an untrusted project, and `settings`: the `plugin.ID.NAME` settings it declares (`key`, `doc`, `needed_by` tools, and `value` and `source` when set)'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;plugins;install'= {
            cand --component 'The component to install; default: the one .wasm under the project''s target/wasm32-wasip2/release/'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;plugins;uninstall'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;plugins;help'= {
            cand list 'One line per plugin, in load order'
            cand install 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id'
            cand uninstall 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;plugins;help;list'= {
        }
        &'smith;plugins;help;install'= {
        }
        &'smith;plugins;help;uninstall'= {
        }
        &'smith;plugins;help;help'= {
        }
        &'smith;auth'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'For each provider: whether its key is set and where it comes from (never the key)'
            cand set 'Store PROVIDER''s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;auth;status'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per provider: `provider`, `env`, `required`, `source` (`environment`, `auth-file` or null)'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;auth;set'= {
            cand --account 'Store it as this named account of the provider''s bucket (used after the environment variable and the unnamed key, in file order) instead of as its key'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;auth;help'= {
            cand status 'For each provider: whether its key is set and where it comes from (never the key)'
            cand set 'Store PROVIDER''s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;auth;help;status'= {
        }
        &'smith;auth;help;set'= {
        }
        &'smith;auth;help;help'= {
        }
        &'smith;secrets'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)'
            cand remove 'Remove secret NAME from the store (records already written stay redacted)'
            cand list 'Every secret a run redacts: name, source and label (never a value)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;secrets;add'= {
            cand --label 'What it is, shown by `list` and recorded with its registration'
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;secrets;remove'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;secrets;list'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per secret: `name`, `reference`, `source`, `label`'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;secrets;help'= {
            cand add 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)'
            cand remove 'Remove secret NAME from the store (records already written stay redacted)'
            cand list 'Every secret a run redacts: name, source and label (never a value)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;secrets;help;add'= {
        }
        &'smith;secrets;help;remove'= {
        }
        &'smith;secrets;help;list'= {
        }
        &'smith;secrets;help;help'= {
        }
        &'smith;models'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --json 'One JSON record per model: `provider`, `id`, `uncatalogued_default`, `context`, `output`, `image_input`, `tools`, `strict_tools`, `thinking`, `cache`, `price` (USD per million tokens), `provenance` (`source`, `figures`, `conflicts`)'
            cand --refresh 'First ask each provider that lists its models what it serves now (the answer is kept; a failure keeps the previous one and says why on stderr)'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;completions'= {
            cand -c 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --config 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings'
            cand --disable-plugin 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids'
            cand --sandbox 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces'
            cand --permission-mode 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does'
            cand --allow-process 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'smith;help'= {
            cand eval 'Run one agent turn without the terminal UI and print its output'
            cand compact 'Compact a session now: the model summarizes its older context, the recent part stays verbatim, and later requests start from the summary (history is kept)'
            cand replay 'Replay a recorded session from its file alone — no provider, nothing run — as its live runs showed it (plain, or the intents as JSON lines)'
            cand undo 'Take back the latest change a session''s tool batch made to the working tree (files written by any tool, `bash` included), restoring the snapshot before it'
            cand redo 'Replay what the latest undo took back'
            cand restore 'Restore the working tree to a snapshot, or to its state at an entry of the session (time travel); recorded, so undo takes it back'
            cand diff 'Show what changed in the working tree between two snapshots or entries, as a git diff (or --stat, --json)'
            cand rpc 'Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts, queue, abort, observation from durable positions, inspection'
            cand mcp 'Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith: its tools with durable effects, sessions as resources, an agent turn as a tool'
            cand acp 'Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission requests, modes'
            cand docs 'Read Smith''s documentation, offline: list, search and get documents'
            cand config 'Show, check and set configuration; every value with its source'
            cand sessions 'Inspect recorded sessions (list, search, read, verify, follow, the request an attempt sent), fork one, select the branch a session continues on, or edit what later requests show the model'
            cand effects 'List a session''s effects whose outcome is unknown (a crash cut them off), with their evidence, and record your verdict on one'
            cand trust 'Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or revoke that trust)'
            cand doctor 'Report what this machine offers Smith: the OS sandbox the programs tools run start in (the kernel''s Landlock, whether the configured mode is enforced, what each mode does)'
            cand tools 'List the active tools: name, plugin, description, input schema'
            cand plugins 'List the plugins: id, version, world, grants, state'
            cand auth 'Check provider credentials without a model request, and store a key (typed with echo off, or piped on stdin)'
            cand secrets 'Register secrets that never reach a provider, a session file or any output (stored with mode 0600, values never printed), and list every secret a run redacts'
            cand models 'List the model catalog: limits, capabilities, prices and where each figure comes from'
            cand completions 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smith;help;eval'= {
        }
        &'smith;help;compact'= {
        }
        &'smith;help;replay'= {
        }
        &'smith;help;undo'= {
        }
        &'smith;help;redo'= {
        }
        &'smith;help;restore'= {
        }
        &'smith;help;diff'= {
        }
        &'smith;help;rpc'= {
        }
        &'smith;help;mcp'= {
            cand serve 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)'
            cand add 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL'
            cand list 'List the MCP servers you added or declared in the configuration, each with its state'
            cand get 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed'
            cand remove 'Remove an MCP server; its tools are no longer offered'
        }
        &'smith;help;mcp;serve'= {
        }
        &'smith;help;mcp;add'= {
        }
        &'smith;help;mcp;list'= {
        }
        &'smith;help;mcp;get'= {
        }
        &'smith;help;mcp;remove'= {
        }
        &'smith;help;acp'= {
        }
        &'smith;help;docs'= {
            cand list 'List every document: id, kind and title, ordered by id'
            cand search 'Search the documentation; results are ranked by relevance, ties ordered by id'
            cand man 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list'
            cand get 'Print one document, or a window of its lines'
        }
        &'smith;help;docs;list'= {
        }
        &'smith;help;docs;search'= {
        }
        &'smith;help;docs;man'= {
        }
        &'smith;help;docs;get'= {
        }
        &'smith;help;config'= {
            cand show 'Print every setting (or KEY) with its resolved value and source'
            cand check 'Validate every configuration layer and report the first problem'
            cand set 'Write one setting to the user configuration (or the project''s), keeping comments'
        }
        &'smith;help;config;show'= {
        }
        &'smith;help;config;check'= {
        }
        &'smith;help;config;set'= {
        }
        &'smith;help;sessions'= {
            cand list 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt''s first line)'
            cand grep 'Search recorded messages and tool output with a regular expression'
            cand get 'Print the entries of one session, a bounded page at a time (by id, or --branch)'
            cand export 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority'
            cand import 'Import a session file — Smith''s own export, or Codex CLI, Claude Code or pi — as a session; prints its id'
            cand fork 'Copy a session''s history up to an entry into a new session, published atomically; prints the new session''s id'
            cand edit 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content'
            cand select 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)'
            cand receipts 'List a session''s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone'
            cand watch 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)'
            cand verify 'Read a whole session and check every frame, record and index; exit 3 on damage'
            cand delete 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references'
            cand prune 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each'
        }
        &'smith;help;sessions;list'= {
        }
        &'smith;help;sessions;grep'= {
        }
        &'smith;help;sessions;get'= {
        }
        &'smith;help;sessions;export'= {
        }
        &'smith;help;sessions;import'= {
        }
        &'smith;help;sessions;fork'= {
        }
        &'smith;help;sessions;edit'= {
        }
        &'smith;help;sessions;select'= {
        }
        &'smith;help;sessions;receipts'= {
        }
        &'smith;help;sessions;watch'= {
        }
        &'smith;help;sessions;verify'= {
        }
        &'smith;help;sessions;delete'= {
        }
        &'smith;help;sessions;prune'= {
        }
        &'smith;help;effects'= {
            cand reconcile 'Record your verdict on an effect whose outcome is unknown'
        }
        &'smith;help;effects;reconcile'= {
        }
        &'smith;help;trust'= {
        }
        &'smith;help;doctor'= {
        }
        &'smith;help;tools'= {
            cand list 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema'
        }
        &'smith;help;tools;list'= {
        }
        &'smith;help;plugins'= {
            cand list 'One line per plugin, in load order'
            cand install 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id'
            cand uninstall 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)'
        }
        &'smith;help;plugins;list'= {
        }
        &'smith;help;plugins;install'= {
        }
        &'smith;help;plugins;uninstall'= {
        }
        &'smith;help;auth'= {
            cand status 'For each provider: whether its key is set and where it comes from (never the key)'
            cand set 'Store PROVIDER''s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept'
        }
        &'smith;help;auth;status'= {
        }
        &'smith;help;auth;set'= {
        }
        &'smith;help;secrets'= {
            cand add 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)'
            cand remove 'Remove secret NAME from the store (records already written stay redacted)'
            cand list 'Every secret a run redacts: name, source and label (never a value)'
        }
        &'smith;help;secrets;add'= {
        }
        &'smith;help;secrets;remove'= {
        }
        &'smith;help;secrets;list'= {
        }
        &'smith;help;models'= {
        }
        &'smith;help;completions'= {
        }
        &'smith;help;help'= {
        }
    ]
    $completions[$command]
}
