# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What arista.eos sends for a delta, and the exec-command guard.

eos_config does not send a file as it is written: netcommon's NetworkConfig drops comment-token
lines and indentation; httpapi turns ``banner ... EOF`` into one command with input, every
other line is a command of its own. sent reproduces that stream; stream_risks refuses a delta
whose stream would not carry every line byte for byte or would hold an exec command (which
inside a configuration session runs on the switch, or leaves configuration mode so that every
later line runs as one). exec_word is the same judgement for one line (the base-config gate
uses it too).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, List, Optional, Sequence

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, secrets

# Commands that run in exec mode (or leave configuration mode): sent inside a session they would
# run on the switch (copy, write, reload) or end the session's mode so that every later line
# runs as an exec command (end, exit at the top level).
EXEC_WORDS = frozenset(("end", "exit", "copy", "write", "reload", "configure", "abort", "commit",
                        "rollback", "bash", "delete", "clear", "run", "send", "rename",
                        "zerotouch", "do"))
EXEC_ALONE = frozenset(("enable", "disable"))   # 'enable secret ...' is configuration
# netcommon's NetworkConfig ignores lines starting with these (config.py DEFAULT_COMMENT_TOKENS).
IGNORED_TOKENS = ("#", "!", "/*", "*/", "echo")


def sent(src: str, transport: str = "httpapi") -> List[Any]:
    """The commands arista.eos's eos_config sends into the session for ``src`` (match: none):
    netcommon's NetworkConfig drops blank and comment-token lines ('#', '!', '/*', '*/',
    'echo', and lines that are only braces or semicolons) and strips indentation; over httpapi
    ``banner ...`` up to ``EOF`` becomes one command with the lines between as input, every
    other line one command ('end' too); over network_cli 'end' is skipped and banner lines are
    typed one by one. A list of str, and (command, input) tuples for banners."""
    lines = []
    for raw in (src or "").split("\n"):
        text = raw.replace("{", "").replace("}", "").replace(";", "").strip()
        if not text or text.startswith(IGNORED_TOKENS):
            continue
        lines.append(raw.strip())
    out = []   # type: List[Any]
    banner, body = None, []   # type: Optional[str], List[str]
    for cmd in lines:
        if transport == "network_cli" and cmd == "end":
            continue
        if banner is None and cmd.startswith("banner"):
            banner, body = cmd, []
            continue
        if banner is not None:
            if cmd == "EOF":
                # one (command, input) either way: what reaches the banner is the same
                out.append((banner, "\n".join(body)))
                banner = None
            else:
                body.append(cmd)
            continue
        out.append(cmd)
    if banner is not None:   # no EOF: every later line became banner text
        out.append((banner, "\n".join(body)))
    return out


# Banner body lines that end the banner or start another one where arista.eos and netcommon
# split a src into commands (a line 'EOF' ends the input; a line 'banner ...' opens a banner):
# the banner is cut at that line and the rest sent as another banner or as commands.
def banner_line_risk(banner: str, line: str) -> Optional[str]:
    """Why a banner body line cannot be sent inside ``banner`` (None when it can): a line that
    reads 'banner login', 'banner motd' or 'EOF' (any case or spacing) ends the banner there."""
    text = " ".join(line.split()).lower()
    if text == "eof" and line != "EOF" or text.split(" ")[:1] == ["banner"]:
        return ('"%s" in "%s": a banner line reading "%s" ends this banner there and starts '
                'another (arista.eos/netcommon split banners at such lines): one banner would be '
                'cut short and the other overwritten; reword the line (e.g. "- %s -")'
                % (line, banner, line.strip(), line.strip()))
    return None


def exec_word(cmd: str) -> Optional[str]:
    """The exec command a config line would run ('end', 'copy', 'write', 'reload', ...)."""
    words = cmd.split()
    if not words:
        return None
    first = words[0].lower()
    if first in EXEC_WORDS or (first in EXEC_ALONE and len(words) == 1):
        return first
    return None


def stream_risks(lines: Sequence[str], transport: str = "httpapi") -> List[str]:
    """Why the command stream for ``lines`` (a delta) cannot be sent as it is: an exec command,
    a line arista.eos would drop or change, a banner without EOF, a multi-line body that would
    be typed as commands. Each message names the line (secrets redacted)."""
    out = []
    stream = sent("\n".join(lines), transport)
    for cmd in stream:
        if isinstance(cmd, tuple):
            continue
        word = exec_word(cmd)
        if word:
            out.append('"%s": %s is an exec command; sent inside the configuration session it '
                       'would run on the switch (or leave configuration mode so that every '
                       'later line runs as one)' % (secrets.redact(cmd), word))
    banner_open = None
    multiline = None   # type: Optional[str]
    for raw in lines:
        text = raw.strip()
        if banner_open is not None or multiline is not None:
            risk = banner_line_risk(banner_open, raw) if banner_open is not None else None
            if risk:
                out.append(risk)
            elif text == "EOF":
                banner_open = multiline = None
            elif multiline is not None:
                pass
            elif raw != text or text.replace("{", "").replace("}", "").replace(
                    ";", "").strip() == "" or text.startswith(IGNORED_TOKENS):
                out.append('"%s": banner line arista.eos would not send as written '
                           '(indentation, or a comment token it drops)' % secrets.redact(raw))
            continue
        if not raw.startswith(" ") and text.lower().startswith("banner "):
            banner_open = text
        elif grammar.is_multiline_head(raw) and raw.startswith(" "):
            multiline = text
            out.append('"%s": a multi-line body (up to EOF) is typed line by line by '
                       'arista.eos, each line as a command: it cannot be sent; keep it as it '
                       'runs (leave it out of roce_eos_base_config)' % secrets.redact(raw))
        elif text and text.startswith(("{{", "{%", "{#")) or "{{" in text or "{%" in text:
            out.append('"%s": eos_config renders its src as a template' % secrets.redact(raw))
    if banner_open is not None:
        out.append('"%s": no EOF line - every later line would become banner text' % banner_open)
    return out
