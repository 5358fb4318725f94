"""Make ``ansible_collections.roce.fabric`` importable when pytest runs from a plain checkout.

ansible-test puts the collection on sys.path itself; a checkout gets a symlink farm in
.collections/ (git-ignored), the same one ansible.cfg points Ansible at.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.basename(os.path.dirname(os.path.dirname(ROOT))) != "ansible_collections":
    farm = os.path.join(ROOT, ".collections")
    link = os.path.join(farm, "ansible_collections", "roce", "fabric")
    if not os.path.lexists(link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.join("..", "..", ".."), link)
    sys.path.insert(0, farm)
