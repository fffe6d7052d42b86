"""The layout's rules that import-linter cannot state (its contracts are in pyproject.toml):
no underscore name imported from another module, no mutable module-level cache outside the
memos, every memo bounded and cleared by ``clear_caches``, and (not yet) variant files
loading without the engine."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import shanghai_rummy as sr
from shanghai_rummy.caches import clear_caches
from shanghai_rummy.memo import MEMOS

PACKAGE = Path(sr.__file__).parent


def _modules() -> list[tuple[str, Path, ast.Module]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append((".".join(parts), path, ast.parse(path.read_text(), filename=str(path))))
    return found


def _target(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def test_no_underscore_name_is_imported_from_another_module() -> None:
    names = {name for name, _, _ in _modules()}
    crossing = []
    for name, path, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _target(name, path.name == "__init__.py", node)
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and f"{target}.{alias.name}" not in names:
                    crossing.append(f"{name} imports {target}.{alias.name}")
    assert crossing == []


def _empty_container(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set)):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in {"dict", "list", "set", "OrderedDict", "defaultdict"}
        and not value.args
    )


# filled at import and never after: the one instance of each card (Card.__new__ reads it)
BUILT_AT_IMPORT = {("shanghai_rummy.cards", "_SHARED")}


def test_no_module_keeps_a_cache_of_its_own() -> None:
    # a module-level container made empty is filled later: a cache; caches are memos
    # (shanghai_rummy.memo), bounded and cleared by clear_caches, or tables built at import
    caches = []
    for module, _path, tree in _modules():
        if module == "shanghai_rummy.memo":
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign):
                targets, value = [node.target], node.value
            else:
                continue
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if any(name.startswith("__") or (module, name) in BUILT_AT_IMPORT for name in names):
                continue
            if _empty_container(value):
                caches.append(f"{module} line {node.lineno}")
    assert caches == []


def _play(seed: int) -> sr.GameState:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=seed)
    bots = [sr.GreedyBot(state.variant) for _ in range(3)]
    for _ in range(400):
        if state.to_act is None:
            break
        seat = state.to_act
        state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
    return state


def test_memos_are_bounded_and_clear_caches_empties_them_without_changing_play() -> None:
    played = _play(5)
    assert MEMOS and any(len(memo) for memo in MEMOS)
    assert all(len(memo) <= memo.size for memo in MEMOS)
    clear_caches()
    assert [len(memo) for memo in MEMOS] == [0] * len(MEMOS)
    assert _play(5) == played


def test_a_memo_never_grows_past_its_size() -> None:
    from shanghai_rummy.memo import IdentityMemo, Memo

    memo: Memo[int, int] = Memo("test.squares", 8)
    kept: IdentityMemo[int] = IdentityMemo("test.lengths", 4)
    try:
        for number in range(100):
            memo.put(number, number * number)
            assert len(memo) <= 8
            subject = [number]
            kept.put(subject, None, number)
            assert kept.get(subject) == number and len(kept) <= 4
        assert memo.get(99) == 99 * 99 and kept.get([99]) is None  # identity, not equality
    finally:
        MEMOS.remove(memo)
        MEMOS.remove(kept)


def test_variant_files_and_variant_json_load_without_the_engine(tmp_path: Path) -> None:
    document = tmp_path / "house.json"
    document.write_text(json.dumps({"base": "shanghai", "id": "house", "name": "House"}))
    toml = tmp_path / "house.toml"
    toml.write_text('base = "shanghai"\nid = "house-toml"\nname = "House TOML"\n')
    program = f"""
import sys
import shanghai_rummy as sr
first = sr.load_variant({str(document)!r})
second = sr.load_variant({str(toml)!r})
assert first.id == "house" and second.id == "house-toml"
loaded = sorted(name for name in sys.modules if name.startswith("shanghai_rummy."))
print(" ".join(loaded))
"""
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = done.stdout.split()
    assert "shanghai_rummy.variants" in loaded
    game = ("shanghai_rummy.engine", "shanghai_rummy.solver", "shanghai_rummy.state")
    assert [name for name in loaded if name.startswith(game)] == []
