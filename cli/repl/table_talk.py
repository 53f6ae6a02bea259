"""The REPL's table talk (SPEC §29.17, §29.18), for every game and both screens: `say TEXT`
chats, `undo` asks the other seats to take back the last action, `yes` and `no` answer such
an ask. Only a seat on the network has a driver that offers them (cli/netplay/table_talk.py)."""
from __future__ import annotations

__all__ = ["table_command", "TABLE_HELP"]

TABLE_HELP = ("At the table: say TEXT chats with every seat; undo asks the others to take back the "
              "last action (every seat must say yes); yes / no answers such an ask.")


def table_command(repl, word: str, rest: str) -> bool:
    """Do `say`, `undo`, `yes` or `no` if the line is one (True), else False."""
    driver = repl.driver
    networked = hasattr(driver, "ask_takeback")
    if word in ("say", "undo") and not networked:
        repl.say(f"{word} is for a game over the network (asv host, asv join): here nobody else is at the table",
                 "fg:ansired")
        return True
    if word == "say":
        _told(repl, driver.say(rest) if rest else "say what? type say and the line, e.g. say good luck")
        return True
    if word == "undo":
        if rest:
            repl.say("undo takes nothing after it: it asks to take back the last action", "fg:ansired")
            return True
        refusal = driver.ask_takeback()
        _told(repl, refusal)
        return True
    if word in ("yes", "no") and not rest and networked and driver.takeback_question() is not None:
        _told(repl, driver.answer_takeback(word == "yes"))
        return True
    return False


def _told(repl, refusal: str | None) -> None:
    if refusal is not None:
        repl.say(refusal, "fg:ansired")
