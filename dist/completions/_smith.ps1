
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'smith' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'smith'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'smith' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else the model the session last recorded')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else the model the session last recorded')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Open the existing session ID (a unique prefix is enough; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project). Held by another Smith process, it opens read-only')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'Play this provider script (scripted provider only), as `smith eval --script` does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('--continue', '--continue', [CompletionResultType]::ParameterName, 'Continue the session most recently written among those started in this directory, else in the nearest directory above it in its project (same as --session last)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Run one agent turn without the terminal UI and print its output')
            [CompletionResult]::new('compact', 'compact', [CompletionResultType]::ParameterValue, 'Compact a session now: the model summarizes its older context, the recent part stays verbatim, and later requests start from the summary (history is kept)')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Replay a recorded session from its file alone — no provider, nothing run — as its live runs showed it (plain, or the intents as JSON lines)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Take back the latest change a session''s tool batch made to the working tree (files written by any tool, `bash` included), restoring the snapshot before it')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Replay what the latest undo took back')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the working tree to a snapshot, or to its state at an entry of the session (time travel); recorded, so undo takes it back')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changed in the working tree between two snapshots or entries, as a git diff (or --stat, --json)')
            [CompletionResult]::new('rpc', 'rpc', [CompletionResultType]::ParameterValue, 'Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts, queue, abort, observation from durable positions, inspection')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith: its tools with durable effects, sessions as resources, an agent turn as a tool')
            [CompletionResult]::new('acp', 'acp', [CompletionResultType]::ParameterValue, 'Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission requests, modes')
            [CompletionResult]::new('docs', 'docs', [CompletionResultType]::ParameterValue, 'Read Smith''s documentation, offline: list, search and get documents')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show, check and set configuration; every value with its source')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'Inspect recorded sessions (list, search, read, verify, follow, the request an attempt sent), fork one, select the branch a session continues on, or edit what later requests show the model')
            [CompletionResult]::new('effects', 'effects', [CompletionResultType]::ParameterValue, 'List a session''s effects whose outcome is unknown (a crash cut them off), with their evidence, and record your verdict on one')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or revoke that trust)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Report what this machine offers Smith: the OS sandbox the programs tools run start in (the kernel''s Landlock, whether the configured mode is enforced, what each mode does)')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the active tools: name, plugin, description, input schema')
            [CompletionResult]::new('plugins', 'plugins', [CompletionResultType]::ParameterValue, 'List the plugins: id, version, world, grants, state')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Check provider credentials without a model request, and store a key (typed with echo off, or piped on stdin)')
            [CompletionResult]::new('secrets', 'secrets', [CompletionResultType]::ParameterValue, 'Register secrets that never reach a provider, a session file or any output (stored with mode 0600, values never printed), and list every secret a run redacts')
            [CompletionResult]::new('models', 'models', [CompletionResultType]::ParameterValue, 'List the model catalog: limits, capabilities, prices and where each figure comes from')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;eval' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else (continuing a session) the model the session last recorded')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else (continuing a session) the model the session last recorded')
            [CompletionResult]::new('--thinking', '--thinking', [CompletionResultType]::ParameterName, 'The thinking level to ask for: off, minimal, low, medium, high, xhigh or max (the model''s catalog record must list it); default: the `thinking` setting, else the model''s own default')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Append to the existing session ID (a unique prefix is enough; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of creating one')
            [CompletionResult]::new('--session-id', '--session-id', [CompletionResultType]::ParameterName, 'Record into session ID (a UUID you choose), creating it if it does not exist yet and continuing it if it does: with --dedup-key, a retried first prompt is one admission')
            [CompletionResult]::new('--dedup-key', '--dedup-key', [CompletionResultType]::ParameterName, 'Deduplicate this submission with KEY (needs --session or --session-id): if the session already admitted KEY with the same model and prompt, nothing runs and that submission''s receipt and recorded answer are printed; KEY with other content fails (exit 2)')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'Play this provider script (scripted provider only); the model name becomes its label')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'Attach an image to the prompt (PNG, JPEG, GIF or WebP, at most 3.75 MiB each and 8 MiB in all, at most 16); repeatable. Sent only to a model whose catalog record says image input. `@shot.png` in the prompt attaches an image inside the working directory too')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Emit LF-delimited JSON records on stdout instead of plain text')
            [CompletionResult]::new('--continue', '--continue', [CompletionResultType]::ParameterName, 'Continue the session most recently written among those started in this directory, else in the nearest directory above it in its project (same as --session last)')
            [CompletionResult]::new('--no-session', '--no-session', [CompletionResultType]::ParameterName, 'Record into a temporary session store, removed when the run succeeds')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Append standard input to the prompt as a fenced block (UTF-8, at most 1 MiB); without it stdin is not read when a prompt is given')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;compact' {
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'What the summary should focus on (given to the compaction plugin)')
            [CompletionResult]::new('--keep-tokens', '--keep-tokens', [CompletionResultType]::ParameterName, 'Keep about N estimated tokens of recent context verbatim (default: the `compaction.keep-tokens` setting)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model that writes the summary, as PROVIDER/MODEL or an alias or group; default: the `model` setting, else the model the session last recorded')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model that writes the summary, as PROVIDER/MODEL or an alias or group; default: the `model` setting, else the model the session last recorded')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'Play this provider script (scripted provider only)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Emit the intents as LF-delimited JSON records on stdout instead of plain text')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;replay' {
            [CompletionResult]::new('--turns', '--turns', [CompletionResultType]::ParameterName, 'Replay only turns A to B (from 1; `3` alone is `3..3`, `2..` to the last)')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Replay the branch ending at entry ENTRY (an entry id, as `smith sessions get` lists them) instead of the session''s selected branch')
            [CompletionResult]::new('--speed', '--speed', [CompletionResultType]::ParameterName, 'How fast: `real` (as recorded, gaps over 2 s shortened to 2 s), N (N times faster, e.g. 10 or 0.5) or `instant` (the default when stdout is not a terminal)')
            [CompletionResult]::new('--in', '--in', [CompletionResultType]::ParameterName, 'With --execute: run in directory DIR as it is, instead of a scratch copy of the snapshot taken at the start of the range (DIR is changed by the calls)')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'With --execute: also write the report as JSON lines to FILE')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Emit the intents as LF-delimited JSON records on stdout instead of plain text')
            [CompletionResult]::new('--tui', '--tui', [CompletionResultType]::ParameterName, 'Show the replay in the terminal UI (read-only; leave with Ctrl+C twice). Paced as recorded unless --speed says otherwise')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Run the recorded tool calls again and report, per effect, whether it came out the same')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;undo' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'Take back (or replay) every latest step of the same turn')
            [CompletionResult]::new('--snapshot-first', '--snapshot-first', [CompletionResultType]::ParameterName, 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as one JSON record')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;redo' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'Take back (or replay) every latest step of the same turn')
            [CompletionResult]::new('--snapshot-first', '--snapshot-first', [CompletionResultType]::ParameterName, 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as one JSON record')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;restore' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--snapshot-first', '--snapshot-first', [CompletionResultType]::ParameterName, 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as one JSON record')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;diff' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'git''s `--stat` summary instead of the patch')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record with every file''s change')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;rpc' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model sessions use unless a submission names one (as the `model` setting); `smith -m MODEL rpc` gives it too')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model sessions use unless a submission names one (as the `model` setting); `smith -m MODEL rpc` gives it too')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;mcp' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Record tool effects in this existing session (an id or unique prefix; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of a new one')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'Play this provider script in `smith_run` turns (scripted provider only); the model name becomes its label')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the MCP servers you added or declared in the configuration, each with its state')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an MCP server; its tools are no longer offered')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;mcp;serve' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Record tool effects in this existing session (an id or unique prefix; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of a new one')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'Play this provider script in `smith_run` turns (scripted provider only); the model name becomes its label')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;mcp;add' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A variable set for the server (repeatable); its value is never shown')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'A variable set for the server (repeatable); its value is never shown')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The server''s working directory, relative to the session''s')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long it may take to answer `initialize` and `tools/list` (default 30, at most 600)')
            [CompletionResult]::new('--call-timeout', '--call-timeout', [CompletionResultType]::ParameterName, 'How long it may stay silent during a tool call, its progress notifications counting as speech (default 300, at most 3600)')
            [CompletionResult]::new('--writable-root', '--writable-root', [CompletionResultType]::ParameterName, 'A directory the server''s program may write beneath besides the project (repeatable)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'The Streamable HTTP endpoint of a server that is not a program')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header sent with each request to --url (repeatable; kept in plain text with the server''s entry, so give secrets with --secret)')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'A registered secret (smith secrets add NAME) Smith sends to --url''s host as `Authorization: Bearer …`, or in HEADER')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Let the server''s program reach the network although the sandbox denies it')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;mcp;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per server')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;mcp;get' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;mcp;remove' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;mcp;help' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the MCP servers you added or declared in the configuration, each with its state')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an MCP server; its tools are no longer offered')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;mcp;help;serve' {
            break
        }
        'smith;mcp;help;add' {
            break
        }
        'smith;mcp;help;list' {
            break
        }
        'smith;mcp;help;get' {
            break
        }
        'smith;mcp;help;remove' {
            break
        }
        'smith;mcp;help;help' {
            break
        }
        'smith;acp' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model sessions use unless the editor picks one (as the `model` setting); `smith -m MODEL acp` gives it too')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model sessions use unless the editor picks one (as the `model` setting); `smith -m MODEL acp` gives it too')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'Play this provider script in every prompt''s turn (scripted provider only); the model name picks nothing then')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;docs' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every document: id, kind and title, ordered by id')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the documentation; results are ranked by relevance, ties ordered by id')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print one document, or a window of its lines')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;docs;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Emit one JSON record per document')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;docs;search' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Hits per page (1 to 100)')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue after the previous page (the cursor it printed)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Emit one JSON record per hit, then a `page` record')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;docs;man' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the page names instead')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;docs;get' {
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Body lines A..B, 1-based and inclusive (`A..` runs to the end; `A` is one line)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Emit the document as one JSON record')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;docs;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every document: id, kind and title, ordered by id')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the documentation; results are ranked by relevance, ties ordered by id')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print one document, or a window of its lines')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;docs;help;list' {
            break
        }
        'smith;docs;help;search' {
            break
        }
        'smith;docs;help;man' {
            break
        }
        'smith;docs;help;get' {
            break
        }
        'smith;docs;help;help' {
            break
        }
        'smith;config' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting (or KEY) with its resolved value and source')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every configuration layer and report the first problem')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Write one setting to the user configuration (or the project''s), keeping comments')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;config;show' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per setting: `key`, `value`, `source`, `level`')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;config;check' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;config;set' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Write to the project''s `.smith/config.kdl` instead')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;config;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting (or KEY) with its resolved value and source')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every configuration layer and report the first problem')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Write one setting to the user configuration (or the project''s), keeping comments')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;config;help;show' {
            break
        }
        'smith;config;help;check' {
            break
        }
        'smith;config;help;set' {
            break
        }
        'smith;config;help;help' {
            break
        }
        'smith;sessions' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt''s first line)')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search recorded messages and tool output with a regular expression')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print the entries of one session, a bounded page at a time (by id, or --branch)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import a session file — Smith''s own export, or Codex CLI, Claude Code or pi — as a session; prints its id')
            [CompletionResult]::new('fork', 'fork', [CompletionResultType]::ParameterValue, 'Copy a session''s history up to an entry into a new session, published atomically; prints the new session''s id')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content')
            [CompletionResult]::new('select', 'select', [CompletionResultType]::ParameterValue, 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)')
            [CompletionResult]::new('receipts', 'receipts', [CompletionResultType]::ParameterValue, 'List a session''s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Read a whole session and check every frame, record and index; exit 3 on damage')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;sessions;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only the sessions started in this directory (what `smith eval --continue` picks from first; with none here it continues the nearest directory above it in its project)')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;grep' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per matching line')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;get' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Entries per page (1 to 1000)')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue after this entry id (the cursor the previous page printed)')
            [CompletionResult]::new('--request', '--request', [CompletionResultType]::ParameterName, 'Instead of entries, the effective request of one attempt — its entry id as the page lists it, or TURN.ROUND.ATTEMPT (e.g. 1.2.1): the instructions, tool definitions and context exactly as the provider plugin received them, rebuilt from the session file alone and checked against the SHA-256 recorded at dispatch. Edited items show the edit; the entries themselves keep their original content')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per entry, then a `page` record')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Only the selected branch, from its leaf toward the root (newest first); the cursor then names the entry whose parent the next page starts at')
            [CompletionResult]::new('--usage', '--usage', [CompletionResultType]::ParameterName, 'Also account for the whole session, whatever the page: usage and cost per attempt and in total, and the memory each turn allocated (reads every attempt, so it costs more as the session grows)')
            [CompletionResult]::new('--wire', '--wire', [CompletionResultType]::ParameterName, 'With --request: the HTTP request instead (method, path, headers, body), encoded again by the provider plugin generation that sent it — byte for byte what went out, without the credential header. Nothing is sent and no credential is read')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;export' {
            [CompletionResult]::new('--html', '--html', [CompletionResultType]::ParameterName, 'Write one self-contained HTML page instead — the selected branch''s conversation with collapsible thinking, tool calls with their results, the diffs of the working-tree changes, usage and cost — to FILE (default: stdout). The page loads and runs nothing')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Only the selected branch, from its leaf toward the root (newest first, as `get --branch` pages it)')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;import' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;fork' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'The fork point: the new session holds entries 1..=ENTRY with ENTRY selected (default: the selected leaf)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON record instead of the bare id')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;edit' {
            [CompletionResult]::new('--omit', '--omit', [CompletionResultType]::ParameterName, 'Leave this message or tool result out of what the model sees (repeatable). A tool call''s message goes together with all of its results')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Show the model FILE''s text instead of this message''s text or tool result''s output (repeatable; `-` reads standard input). A message keeps its tool calls')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;select' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;receipts' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per submission: `submission`, `admitted_in`, `dedup_key`, `model`, `state` (`admitted` or `terminal`), `stop_reason`, `end`, `error`, `answer`')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;watch' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The first entry to print (default 1: the whole history); the next entry id to be committed prints only what is new')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per entry, as `get --json` prints them')
            [CompletionResult]::new('--until-idle', '--until-idle', [CompletionResultType]::ParameterName, 'Stop once every committed entry is printed and no process is writing the session')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;verify' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;delete' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'List what would be removed, and remove nothing')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Remove the sessions last written longer ago than this: a number and a unit, such as `30d`, `2w`, `12h`, `90m`, `6 months`, `1y`')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Keep the N most recently written sessions whatever their age')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'List what would be removed, and remove nothing')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;sessions;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt''s first line)')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search recorded messages and tool output with a regular expression')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print the entries of one session, a bounded page at a time (by id, or --branch)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import a session file — Smith''s own export, or Codex CLI, Claude Code or pi — as a session; prints its id')
            [CompletionResult]::new('fork', 'fork', [CompletionResultType]::ParameterValue, 'Copy a session''s history up to an entry into a new session, published atomically; prints the new session''s id')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content')
            [CompletionResult]::new('select', 'select', [CompletionResultType]::ParameterValue, 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)')
            [CompletionResult]::new('receipts', 'receipts', [CompletionResultType]::ParameterValue, 'List a session''s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Read a whole session and check every frame, record and index; exit 3 on damage')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;sessions;help;list' {
            break
        }
        'smith;sessions;help;grep' {
            break
        }
        'smith;sessions;help;get' {
            break
        }
        'smith;sessions;help;export' {
            break
        }
        'smith;sessions;help;import' {
            break
        }
        'smith;sessions;help;fork' {
            break
        }
        'smith;sessions;help;edit' {
            break
        }
        'smith;sessions;help;select' {
            break
        }
        'smith;sessions;help;receipts' {
            break
        }
        'smith;sessions;help;watch' {
            break
        }
        'smith;sessions;help;verify' {
            break
        }
        'smith;sessions;help;delete' {
            break
        }
        'smith;sessions;help;prune' {
            break
        }
        'smith;sessions;help;help' {
            break
        }
        'smith;effects' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per effect')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Record your verdict on an effect whose outcome is unknown')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;effects;reconcile' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'Why: what you checked (kept with the verdict; at most 4096 bytes)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;effects;help' {
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Record your verdict on an effect whose outcome is unknown')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;effects;help;reconcile' {
            break
        }
        'smith;effects;help;help' {
            break
        }
        'smith;trust' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--revoke', '--revoke', [CompletionResultType]::ParameterName, 'Stop trusting the project instead')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;doctor' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON record instead of the report')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;tools' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;tools;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per tool: `name`, `plugin`, `description`, `input_schema`, `offered` (whether a run from here offers it) and `withheld` (why not, or null)')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;tools;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;tools;help;list' {
            break
        }
        'smith;tools;help;help' {
            break
        }
        'smith;plugins' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per plugin, in load order')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;plugins;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per plugin: `id`, `version`, `world`, `grants`, `state`, `tools`, `origin`, `disabled_by` when disabled, `refused_grants` (grant and why) for requested grants this directory does not give, such as `process.exec` with process.allow false, and `asked_grants` for those given only per use, on your answer, such as `process.exec` in an untrusted project, and `settings`: the `plugin.ID.NAME` settings it declares (`key`, `doc`, `needed_by` tools, and `value` and `source` when set)')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;plugins;install' {
            [CompletionResult]::new('--component', '--component', [CompletionResultType]::ParameterName, 'The component to install; default: the one .wasm under the project''s target/wasm32-wasip2/release/')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;plugins;uninstall' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;plugins;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per plugin, in load order')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;plugins;help;list' {
            break
        }
        'smith;plugins;help;install' {
            break
        }
        'smith;plugins;help;uninstall' {
            break
        }
        'smith;plugins;help;help' {
            break
        }
        'smith;auth' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'For each provider: whether its key is set and where it comes from (never the key)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Store PROVIDER''s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;auth;status' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per provider: `provider`, `env`, `required`, `source` (`environment`, `auth-file` or null)')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;auth;set' {
            [CompletionResult]::new('--account', '--account', [CompletionResultType]::ParameterName, 'Store it as this named account of the provider''s bucket (used after the environment variable and the unnamed key, in file order) instead of as its key')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;auth;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'For each provider: whether its key is set and where it comes from (never the key)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Store PROVIDER''s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;auth;help;status' {
            break
        }
        'smith;auth;help;set' {
            break
        }
        'smith;auth;help;help' {
            break
        }
        'smith;secrets' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove secret NAME from the store (records already written stay redacted)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every secret a run redacts: name, source and label (never a value)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;secrets;add' {
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'What it is, shown by `list` and recorded with its registration')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;secrets;remove' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;secrets;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per secret: `name`, `reference`, `source`, `label`')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;secrets;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove secret NAME from the store (records already written stay redacted)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every secret a run redacts: name, source and label (never a value)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;secrets;help;add' {
            break
        }
        'smith;secrets;help;remove' {
            break
        }
        'smith;secrets;help;list' {
            break
        }
        'smith;secrets;help;help' {
            break
        }
        'smith;models' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON record per model: `provider`, `id`, `uncatalogued_default`, `context`, `output`, `image_input`, `tools`, `strict_tools`, `thinking`, `cache`, `price` (USD per million tokens), `provenance` (`source`, `figures`, `conflicts`)')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'First ask each provider that lists its models what it serves now (the answer is kept; a failure keeps the previous one and says why on stderr)')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;completions' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings')
            [CompletionResult]::new('--disable-plugin', '--disable-plugin', [CompletionResultType]::ParameterName, 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does')
            [CompletionResult]::new('--allow-process', '--allow-process', [CompletionResultType]::ParameterName, 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'smith;help' {
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Run one agent turn without the terminal UI and print its output')
            [CompletionResult]::new('compact', 'compact', [CompletionResultType]::ParameterValue, 'Compact a session now: the model summarizes its older context, the recent part stays verbatim, and later requests start from the summary (history is kept)')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Replay a recorded session from its file alone — no provider, nothing run — as its live runs showed it (plain, or the intents as JSON lines)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Take back the latest change a session''s tool batch made to the working tree (files written by any tool, `bash` included), restoring the snapshot before it')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Replay what the latest undo took back')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the working tree to a snapshot, or to its state at an entry of the session (time travel); recorded, so undo takes it back')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changed in the working tree between two snapshots or entries, as a git diff (or --stat, --json)')
            [CompletionResult]::new('rpc', 'rpc', [CompletionResultType]::ParameterValue, 'Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts, queue, abort, observation from durable positions, inspection')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith: its tools with durable effects, sessions as resources, an agent turn as a tool')
            [CompletionResult]::new('acp', 'acp', [CompletionResultType]::ParameterValue, 'Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission requests, modes')
            [CompletionResult]::new('docs', 'docs', [CompletionResultType]::ParameterValue, 'Read Smith''s documentation, offline: list, search and get documents')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show, check and set configuration; every value with its source')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'Inspect recorded sessions (list, search, read, verify, follow, the request an attempt sent), fork one, select the branch a session continues on, or edit what later requests show the model')
            [CompletionResult]::new('effects', 'effects', [CompletionResultType]::ParameterValue, 'List a session''s effects whose outcome is unknown (a crash cut them off), with their evidence, and record your verdict on one')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or revoke that trust)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Report what this machine offers Smith: the OS sandbox the programs tools run start in (the kernel''s Landlock, whether the configured mode is enforced, what each mode does)')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the active tools: name, plugin, description, input schema')
            [CompletionResult]::new('plugins', 'plugins', [CompletionResultType]::ParameterValue, 'List the plugins: id, version, world, grants, state')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Check provider credentials without a model request, and store a key (typed with echo off, or piped on stdin)')
            [CompletionResult]::new('secrets', 'secrets', [CompletionResultType]::ParameterValue, 'Register secrets that never reach a provider, a session file or any output (stored with mode 0600, values never printed), and list every secret a run redacts')
            [CompletionResult]::new('models', 'models', [CompletionResultType]::ParameterValue, 'List the model catalog: limits, capabilities, prices and where each figure comes from')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smith;help;eval' {
            break
        }
        'smith;help;compact' {
            break
        }
        'smith;help;replay' {
            break
        }
        'smith;help;undo' {
            break
        }
        'smith;help;redo' {
            break
        }
        'smith;help;restore' {
            break
        }
        'smith;help;diff' {
            break
        }
        'smith;help;rpc' {
            break
        }
        'smith;help;mcp' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the MCP servers you added or declared in the configuration, each with its state')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an MCP server; its tools are no longer offered')
            break
        }
        'smith;help;mcp;serve' {
            break
        }
        'smith;help;mcp;add' {
            break
        }
        'smith;help;mcp;list' {
            break
        }
        'smith;help;mcp;get' {
            break
        }
        'smith;help;mcp;remove' {
            break
        }
        'smith;help;acp' {
            break
        }
        'smith;help;docs' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every document: id, kind and title, ordered by id')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the documentation; results are ranked by relevance, ties ordered by id')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print one document, or a window of its lines')
            break
        }
        'smith;help;docs;list' {
            break
        }
        'smith;help;docs;search' {
            break
        }
        'smith;help;docs;man' {
            break
        }
        'smith;help;docs;get' {
            break
        }
        'smith;help;config' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting (or KEY) with its resolved value and source')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every configuration layer and report the first problem')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Write one setting to the user configuration (or the project''s), keeping comments')
            break
        }
        'smith;help;config;show' {
            break
        }
        'smith;help;config;check' {
            break
        }
        'smith;help;config;set' {
            break
        }
        'smith;help;sessions' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt''s first line)')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search recorded messages and tool output with a regular expression')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print the entries of one session, a bounded page at a time (by id, or --branch)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import a session file — Smith''s own export, or Codex CLI, Claude Code or pi — as a session; prints its id')
            [CompletionResult]::new('fork', 'fork', [CompletionResultType]::ParameterValue, 'Copy a session''s history up to an entry into a new session, published atomically; prints the new session''s id')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content')
            [CompletionResult]::new('select', 'select', [CompletionResultType]::ParameterValue, 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)')
            [CompletionResult]::new('receipts', 'receipts', [CompletionResultType]::ParameterValue, 'List a session''s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Read a whole session and check every frame, record and index; exit 3 on damage')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each')
            break
        }
        'smith;help;sessions;list' {
            break
        }
        'smith;help;sessions;grep' {
            break
        }
        'smith;help;sessions;get' {
            break
        }
        'smith;help;sessions;export' {
            break
        }
        'smith;help;sessions;import' {
            break
        }
        'smith;help;sessions;fork' {
            break
        }
        'smith;help;sessions;edit' {
            break
        }
        'smith;help;sessions;select' {
            break
        }
        'smith;help;sessions;receipts' {
            break
        }
        'smith;help;sessions;watch' {
            break
        }
        'smith;help;sessions;verify' {
            break
        }
        'smith;help;sessions;delete' {
            break
        }
        'smith;help;sessions;prune' {
            break
        }
        'smith;help;effects' {
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Record your verdict on an effect whose outcome is unknown')
            break
        }
        'smith;help;effects;reconcile' {
            break
        }
        'smith;help;trust' {
            break
        }
        'smith;help;doctor' {
            break
        }
        'smith;help;tools' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema')
            break
        }
        'smith;help;tools;list' {
            break
        }
        'smith;help;plugins' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per plugin, in load order')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)')
            break
        }
        'smith;help;plugins;list' {
            break
        }
        'smith;help;plugins;install' {
            break
        }
        'smith;help;plugins;uninstall' {
            break
        }
        'smith;help;auth' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'For each provider: whether its key is set and where it comes from (never the key)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Store PROVIDER''s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept')
            break
        }
        'smith;help;auth;status' {
            break
        }
        'smith;help;auth;set' {
            break
        }
        'smith;help;secrets' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove secret NAME from the store (records already written stay redacted)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every secret a run redacts: name, source and label (never a value)')
            break
        }
        'smith;help;secrets;add' {
            break
        }
        'smith;help;secrets;remove' {
            break
        }
        'smith;help;secrets;list' {
            break
        }
        'smith;help;models' {
            break
        }
        'smith;help;completions' {
            break
        }
        'smith;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
