"""execution-environment.yml is a valid ansible-builder 3 definition whose build context
installs this collection and the pinned ansible-core (no container runtime needed to check)."""
import os
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_ee_build_context():
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ["PATH"])
    subprocess.run(["make", "-s", "ee"], cwd=ROOT, check=True, env=env,
                   capture_output=True, text=True)
    context = os.path.join(ROOT, ".build", "ee", "context")
    with open(os.path.join(context, "Dockerfile")) as handle:
        steps = handle.read()
    assert "ansible-core==2.19.14" in steps
    assert "ansible-galaxy collection install --offline --no-deps" in steps
    build = os.path.join(context, "_build")
    with open(os.path.join(build, "requirements.txt")) as handle:
        reqs = handle.read()
    assert "netaddr==1.3.0" in reqs and "jsonschema==4.26.0" in reqs
    with tarfile.open(os.path.join(build, "collections", "roce-fabric.tar.gz")) as tar:
        names = tar.getnames()
    assert "MANIFEST.json" in names
    assert "plugins/module_utils/pipeline.py" in names
    assert "plugins/plugin_utils/plan_store.py" in names
    assert "roles/switch_deploy/tasks/roll.yml" in names
    assert not [n for n in names if n.startswith((".venv", ".collections", ".build"))]
