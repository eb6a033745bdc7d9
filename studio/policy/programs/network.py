"""Network use (asks) and exfiltration (blocks): sending data or files to another host, raw
connections, and tools that hand out stored secrets."""

from __future__ import annotations

from studio.policy.decision import shorten
from studio.policy.programs.call import Call, Handler, parse_options
from studio.policy.programs.paths import is_remote, is_url, words
from studio.policy.programs.skillguard import copies_over_skill, rsync_deletes
from studio.policy.shell.expand import Arg

RAW_CONNECTIONS = frozenset(["nc", "ncat", "netcat", "socat", "telnet"])
FILE_TRANSFER = frozenset(["scp", "sftp", "ftp", "tftp", "lftp"])
MAILERS = frozenset(["mail", "mailx", "sendmail", "mutt"])
LOOKUPS = words("ping ping6 dig nslookup host traceroute tracepath whois mtr")
DOWNLOADERS = frozenset(["aria2c", "http", "https", "httpie", "xh"])

_CURL_SENDS = words(
    "-d --data --data-ascii --data-binary --data-raw --data-urlencode -F --form --form-string -T "
    "--upload-file --json"
)
_CURL_WRITES = words(
    "-o --output -D --dump-header -c --cookie-jar --trace --trace-ascii --stderr --output-dir "
    "--etag-save --hsts"
)
_CURL_READS = words(
    "-K --config --netrc-file -E --cert --key --cacert --capath -b --cookie --etag-compare "
    "--proxy-cert --proxy-key"
)
_CURL_VALUES = words(
    "-H --header -X --request -u --user -A --user-agent -e --referer -x --proxy --url -w --write-out "
    "-m --max-time --connect-timeout -r --range -y -Y -z --retry --retry-delay --retry-max-time "
    "--resolve --interface --limit-rate -C --continue-at --unix-socket --proxy-user -U --max-redirs "
    "--max-filesize --connect-to --dns-servers --happy-eyeballs-timeout-ms --oauth2-bearer --variable"
)


def _uploads_file(name: str, data: Arg) -> bool:
    """Whether curl sends a file's content (`-d @file`, `-F x=@file`, `-T file`), or data the
    policy cannot see, rather than the literal text written on the line."""
    if not data.known or not data.exact or name in ("-T", "--upload-file"):
        return True
    if name in ("-F", "--form"):
        return "@" in data.text or "<" in data.text
    if name == "--data-urlencode":
        return "@" in data.text.partition("=")[0]
    return name != "--data-raw" and data.text.startswith("@")


def curl(call: Call) -> None:
    options = parse_options(call.args, _CURL_SENDS | _CURL_WRITES | _CURL_READS | _CURL_VALUES)
    sent = [(name, value) for name in _CURL_SENDS for value in options.value(name)]
    for name, data in sent:
        if _uploads_file(name, data):
            call.block("exfiltration", f"sends data to another host (`{name} {data.raw}`)")
            if data.known and "@" in data.text:
                call.read(Arg(data.text.split("@", 1)[1], data.raw, data.exact, data.known))
        else:
            # Data written out on the line itself: the user sees what would leave.
            call.ask("network", f"`curl {name} {shorten(data.text, 60)}` sends this data to another host")
    for name in _CURL_WRITES:
        for value in options.value(name):
            if not (value.known and value.text == "-"):
                call.write(value)
    for name in _CURL_READS:
        for value in options.value(name):
            if name not in ("-b", "--cookie") or (value.known and "=" not in value.text):
                call.read(value)
    if options.has("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        call.ask("write", "`curl -O` saves the download in the current folder under the server's name")
    urls = options.operands + options.value("--url")
    if not urls:
        call.network("a URL given elsewhere")
    for url in urls:
        if url.known and url.text.lower().startswith("file://"):
            call.url(url)
        else:
            call.network(url.text if url.known else url.raw)


_WGET_SENDS = frozenset({"--post-data", "--post-file", "--body-data", "--body-file"})
_WGET_VALUES = (
    words(
        "-O --output-document -o --output-file -a --append-output -P --directory-prefix -i "
        "--input-file -U --user-agent --header -t --tries -T --timeout -w --wait --method --user "
        "--password -l --level -A -R --accept --reject --load-cookies --save-cookies -e --execute "
        "--limit-rate --certificate --private-key --ca-certificate --referer"
    )
    | _WGET_SENDS
)


def wget(call: Call) -> None:
    options = parse_options(call.args, _WGET_VALUES)
    sent = [(name, value) for name in _WGET_SENDS for value in options.value(name)]
    if sent:
        name, value = sent[0]
        call.block("exfiltration", f"sends data to another host (`{name} {value.raw}`)")
        for file_name in ("--post-file", "--body-file"):
            for value in options.value(file_name):
                call.read(value)
    outputs = options.value("-O", "--output-document")
    for output in outputs:
        if not (output.known and output.text == "-"):
            call.write(output)
    for log in options.value("-o", "--output-file", "-a", "--append-output", "--save-cookies"):
        call.write(log)
    for folder in options.value("-P", "--directory-prefix"):
        call.write(folder)
    for source in options.value(
        "-i", "--input-file", "--load-cookies", "--certificate", "--private-key", "--ca-certificate"
    ):
        call.read(source)
    if options.value("-e", "--execute"):
        call.ask("indirection", "`wget -e` runs wgetrc commands, which can change what it does")
    if not outputs and not options.value("-P", "--directory-prefix"):
        call.ask("write", "`wget` saves the download in the current folder")
    for url in options.operands:
        call.network(url.text if url.known else url.raw)


def raw_connection(call: Call) -> None:
    call.block("exfiltration", f"opens a raw network connection (`{call.name}`) that can send files anywhere")


def file_transfer(call: Call) -> None:
    call.block("exfiltration", f"copies files to or from another host (`{call.name}`)")


def mailer(call: Call) -> None:
    call.block("exfiltration", f"sends mail (`{call.name}`), which can carry files out")


def rsync(call: Call) -> None:
    options = parse_options(
        call.args,
        {
            "-e",
            "--rsh",
            "--exclude",
            "--include",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "-f",
            "--filter",
            "--chmod",
            "--chown",
            "--port",
            "--password-file",
            "--log-file",
            "--backup-dir",
            "--suffix",
            "--partial-dir",
            "--temp-dir",
            "-T",
            "--compare-dest",
            "--copy-dest",
            "--link-dest",
            "--max-size",
            "--min-size",
            "--timeout",
            "--bwlimit",
        },
    )
    operands = options.operands
    if not operands:
        call.runs("`rsync` with nothing to copy")
        return
    destination = operands[-1]
    sources = operands[:-1]
    if (destination.known and is_remote(destination.text)) or (options.has("-e", "--rsh") and sources):
        call.block("exfiltration", f"copies files to another host (`{destination.raw}`)")
    for source in sources:
        if source.known and is_remote(source.text):
            call.network(f"copies from {source.text}")
        else:
            call.read(source)
    if not (destination.known and is_remote(destination.text)):
        rsync_deletes(call, sources, destination)
        target = call.write(destination)
        if target is not None:
            local = [s for s in sources if not (s.known and is_remote(s.text))]
            copies_over_skill(call, local, target, False)
    for log_file in options.value("--log-file"):
        call.write(log_file)
    for file_option in ("--exclude-from", "--include-from", "--files-from", "--password-file"):
        for value in options.value(file_option):
            call.read(value)


_SSH_LOCAL_COMMANDS = frozenset({"proxycommand", "localcommand", "knownhostscommand", "permitlocalcommand"})


def ssh(call: Call) -> None:
    if call.inv.stdin is not None or call.inv.stdin_unknown:
        call.block("exfiltration", "sends what it reads from its input to another host")
        return
    options = parse_options(
        call.args,
        {
            "-i",
            "-F",
            "-l",
            "-p",
            "-o",
            "-L",
            "-R",
            "-D",
            "-J",
            "-W",
            "-b",
            "-c",
            "-m",
            "-E",
            "-S",
            "-O",
            "-Q",
            "-w",
            "-B",
            "-e",
            "-I",
        },
        stop_at_operand=True,
    )
    for key in options.value("-i", "-F"):
        call.read(key)
    for option in options.value("-o"):
        name, _, value = option.text.replace("=", " ", 1).partition(" ")
        if name.lower() in _SSH_LOCAL_COMMANDS:
            call.ask("indirection", f"`ssh -o {name}` runs a command on this computer")
            if option.known and value.strip():
                for part in call.nested_text(value.strip()):
                    part.grantable = False
    host = options.operands[0].text if options.operands else "a host"
    call.network(f"logs in to {host}")
    if len(options.operands) > 1:
        call.runs(f"runs a command on {host}")


def lookup(call: Call) -> None:
    hosts = [a.text for a in call.args if a.known and not a.text.startswith("-")]
    call.network(", ".join(hosts) or "a network lookup")


def downloader(call: Call) -> None:
    urls = [a.text for a in call.args if a.known and (is_url(a.text) or "." in a.text)]
    call.network(", ".join(urls) or "an HTTP request")
    call.runs(f"`{call.name}` may save or send data")


def keychain(call: Call) -> None:
    """macOS `security`: reading passwords out of the keychain."""
    if any(a.known and (a.text.startswith(("find-", "dump-")) or a.text == "export") for a in call.args):
        call.block("credential", "reads passwords or keys from the keychain")
    else:
        call.runs("`security` manages the keychain and certificates")


def gpg(call: Call) -> None:
    if any(a.known and a.text.startswith(("--export-secret", "--export-ssh-key")) for a in call.args):
        call.block("credential", "exports secret keys")
        return
    call.runs("`gpg` signs, encrypts or changes keys")
    for arg in call.args:
        if arg.known and not arg.text.startswith("-"):
            call.touch(arg)


HANDLERS: dict[str, Handler] = {
    "curl": curl,
    "wget": wget,
    "rsync": rsync,
    "ssh": ssh,
    "security": keychain,
    "gpg": gpg,
    "gpg2": gpg,
}
HANDLERS.update({name: raw_connection for name in RAW_CONNECTIONS})
HANDLERS.update({name: file_transfer for name in FILE_TRANSFER})
HANDLERS.update({name: mailer for name in MAILERS})
HANDLERS.update({name: lookup for name in LOOKUPS})
HANDLERS.update({name: downloader for name in DOWNLOADERS})
