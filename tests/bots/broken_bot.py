"""An external bot (protocol 1) that breaks the protocol in the way its argument names.

Modes: ok, crash (exits at its first decision), crash-at-start (exits before the hello),
hang (never answers a decision), slow (answers the first decision late but in time), garbage
(not JSON), not-object (JSON, not an object), wrong-type, unknown (not an action), illegal (an
action that is not legal), old-protocol (hello with protocol 2), no-name, deaf (ignores the
bye and stdin's end), grandchild (starts a process that would outlive it; its pid goes to
the file named by the second argument), chatty (logs to stderr, then crashes), twice
(answers each decision twice), blind (answers without reading its input).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    if mode == "crash-at-start":
        sys.exit(3)
    if mode == "grandchild":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(sys.argv[2], "w") as f:
            f.write(str(child.pid))
    if mode == "deaf":
        import signal

        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "blind":  # answers the mazo forever without reading its input
        hello = json.dumps({"type": "hello", "protocol": 1, "name": "blind"})
        mazo = json.dumps({"type": "action", "action": "mazo"})
        sys.stdout.write("\n".join([hello, mazo, mazo]) + "\n")  # one write: read at once
        sys.stdout.flush()
        time.sleep(60)
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            if mode == "old-protocol":
                send({"type": "hello", "protocol": 2, "name": "old"})
            elif mode == "no-name":
                send({"type": "hello", "protocol": 1})
            else:
                send({"type": "hello", "protocol": 1, "name": f"broken-{mode}"})
            continue
        if message["type"] == "bye":
            if mode == "deaf":
                time.sleep(60)
            return
        decisions += 1
        legal = message["observation"]["legal_actions"]
        if mode == "crash":
            sys.exit(2)
        if mode == "chatty":
            sys.stderr.write("thinking hard about it\nTraceback: something broke\n")
            sys.stderr.flush()
            sys.exit(1)
        if mode in ("hang", "grandchild"):
            time.sleep(60)
        if mode == "slow" and decisions == 1:
            time.sleep(0.3)
        if mode == "garbage":
            sys.stdout.write("I play the 7 of oros\n")
            sys.stdout.flush()
        elif mode == "not-object":
            send([1, 2, 3])
        elif mode == "wrong-type":
            send({"type": "move", "action": legal[0]})
        elif mode == "unknown":
            send({"type": "action", "action": "banana"})
        elif mode == "twice":  # in one write, so that the host surely sees both at once
            answer = json.dumps({"type": "action", "action": legal[0]})
            sys.stdout.write(f"{answer}\n{answer}\n")
            sys.stdout.flush()
        elif mode == "illegal":
            send({"type": "action", "action": "joc-fora"})
        else:
            send({"type": "action", "action": legal[-1] if decisions % 7 == 0 else legal[0]})
    if mode == "deaf":
        time.sleep(60)


if __name__ == "__main__":
    main()
