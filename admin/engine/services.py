"""What one mechanic offers the others, by name.

A section that acts through another (the Skunk fires a missile, a Pokeball moves a creature, a
purchase goes on a credit card) calls the owner's function by name: the owner registers it with
:func:`provides` when its module is imported (every mechanic is, with the library), and the
caller fetches it with :func:`use`. So no mechanic imports another's module, and none imports back
into the core: the dependency is a name, guarded by ``state.enabled(<owner>)`` at the call."""

from __future__ import annotations

from typing import Any, Callable

_PROVIDED: dict[str, Callable[..., Any]] = {}


def provides(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the owner offers this function to the other mechanics as ``name``
    (``"<section>.<function>"``)."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        _PROVIDED[name] = fn
        return fn
    return register


def use(name: str) -> Callable[..., Any]:
    """The function a mechanic offers as ``name``; call it only while that mechanic is in force."""
    try:
        return _PROVIDED[name]
    except KeyError:  # a programming error: the owner's file is not imported with the library
        raise RuntimeError(f"no mechanic offers {name!r}; is its file imported by its package's "
                           "__init__.py?") from None
