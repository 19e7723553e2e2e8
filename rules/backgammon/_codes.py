"""Every code backgammon answers (DESIGN 4.4; docs/rules/backgammon.md §12), typed: raised as
``C.name(message, **context)``.

``detail_pl`` templates use only the context members every raise of the code passes (``seat``,
``expected``, ``got``, ``point``, ``field``, ``round``). The Polish follows the seed rulebook's
words: pionek (checker), pole (point), banda (bar), baza (home board), kostka (die), oczka (pips),
zbijanie (hitting), ściąganie (bearing off), kolejka (turn); the doubling cube is "kostka
dublująca", the rulebook not naming it; a game of a match is "partia".
"""

from __future__ import annotations

from rules.base import (
    BAD_TALLY,
    ROUND_NOT_OVER,
    ROUND_OVER,
    GameCodes,
    InvalidOption,
    Label,
    illegal,
    invalid,
)

from ._records import RecordCodes
from ._state import GAME_ID


class C(GameCodes, namespace=GAME_ID):
    """Backgammon's codes; the shared ones (not-your-turn, no-such-seat, game-over,
    malformed-move, bad-state) come from GameCodes."""

    round_over = ROUND_OVER
    round_not_over = ROUND_NOT_OVER
    bad_tally = BAD_TALLY

    # -- turn and protocol --------------------------------------------------------------
    opening_roll = illegal(
        Label("Opening roll first", "Najpierw rzut rozpoczynający"),
        "Grę zaczyna rzut jedną kostką przez każdego gracza, nie „{got}”.",
        "A game starts with the opening roll (one die each); nothing else may be played before it. Send `roll`.",
        "Partię zaczyna rzut rozpoczynający (każdy gracz rzuca jedną kostką); wcześniej nic innego nie wolno. "
        "Wyślij `roll`.")
    must_roll = illegal(
        Label("Roll first", "Najpierw rzut"),
        "Przed ruchem trzeba rzucić kostkami (albo zdublować lub poddać partię), nie „{got}”.",
        "The player on turn has not rolled: `roll`, `double` or `resign` first.",
        "Gracz, na którego przypada kolejka, jeszcze nie rzucił: najpierw `roll`, `double` albo `resign`.")
    must_move = illegal(
        Label("Play the dice", "Zagraj wyrzucone oczka"),
        "Kostki są rzucone i da się nimi zagrać: trzeba przesunąć pionki.",
        "The dice are rolled and can be played: send a `move` with the checkers' steps (an empty move only when "
        "nothing can be played).",
        "Kostki są rzucone i da się nimi zagrać: wyślij `move` z krokami pionków (pusty ruch tylko wtedy, gdy "
        "nie da się zagrać niczego).")
    bad_dice = illegal(
        Label("Impossible dice", "Niemożliwy rzut"), "Kostki pokazują od 1 do 6 oczek; podano {got}.",
        "A `roll` carrying physical dice names two numbers 1..6.",
        "Rzut z podanymi kostkami zawiera dwie liczby od 1 do 6.")
    bad_notation = illegal(
        Label("Unreadable notation", "Nieczytelny zapis"),
        "Zapis ruchu to np. „13/7 8/5”, „bar/20”, „6/off”, „8/5(2)”.",
        "The move's `notation` is not standard play notation. Write paths such as 13/7 8/5, bar/20*, 6/off, "
        "8/5(2), or send `steps`.",
        "Pole `notation` nie jest zapisem ruchu. Pisz ścieżki jak 13/7 8/5, bar/20*, 6/off, 8/5(2) albo wyślij "
        "`steps`.")
    notation_mismatch = illegal(
        Label("Notation and steps differ", "Zapis i kroki się różnią"),
        "Zapis ruchu i lista kroków opisują różne ruchy.",
        "A move gave both `steps` and `notation`, and they describe different steps. Send one, or make them agree.",
        "Ruch podaje `steps` i `notation`, ale opisują różne kroki. Wyślij jedno albo uzgodnij oba.")
    bad_resign_level = illegal(
        Label("Unknown resignation level", "Nieznana stawka poddania"),
        "Poddać można pojedynczą partię, gammona albo backgammona, nie „{got}”.",
        "A resignation is offered at level single, gammon or backgammon.",
        "Poddanie proponuje się na poziomie: pojedyncza partia, gammon albo backgammon.")

    # -- checker play --------------------------------------------------------------------
    no_legal_play = illegal(
        Label("No legal play", "Brak ruchu"),
        "Rzutem {expected} nie da się ruszyć żadnym pionkiem: gracz traci kolejkę (pusty ruch).",
        "Nothing can be played with these dice: the turn is forfeited. Send `{\"kind\": \"move\", \"steps\": []}`.",
        "Tym rzutem nie da się zagrać: gracz traci kolejkę. Wyślij `{\"kind\": \"move\", \"steps\": []}`.")
    bad_step = illegal(
        Label("Step does not go forward", "Ruch nie do przodu"),
        "Pionek idzie tylko do przodu, na pole o niższym numerze (banda 25, zejście 0); krok {got}.",
        "A step goes from a higher point to a lower one in the mover's numbering (bar 25, off 0).",
        "Krok prowadzi z pola o wyższym numerze na niższe, w numeracji gracza (banda 25, zejście 0).")
    no_checker = illegal(
        Label("No checker there", "Brak pionka"), "Na polu {point} nie ma twojego pionka.",
        "A step starts on a point where the mover has no checker (left).",
        "Krok zaczyna się na polu, na którym gracz nie ma (już) pionka.")
    must_enter_from_bar = illegal(
        Label("Enter from the bar first", "Najpierw pionek z bandy"),
        "Zbity pionek z bandy musi wrócić do gry, zanim ruszy się inny.",
        "A checker on the bar must enter before any other checker moves (§4.2).",
        "Pionek z bandy musi wejść do gry, zanim ruszy się jakikolwiek inny (§4.2).")
    blocked_point = illegal(
        Label("Point blocked", "Pole zablokowane"),
        "Pole {point} zajmują co najmniej dwa pionki przeciwnika: nie jest otwarte.",
        "A step lands on a point held by two or more opposing checkers (§4.1).",
        "Krok kończy się na polu zajętym przez co najmniej dwa pionki przeciwnika (§4.1).")
    cannot_bear_off = illegal(
        Label("Not all checkers home", "Nie wszystkie pionki w bazie"),
        "Ściągać pionki można dopiero, gdy wszystkie są w bazie; ruch z pola {point} za wcześnie.",
        "Checkers are borne off only when all fifteen are in the home board (§4.3).",
        "Pionki ściąga się dopiero wtedy, gdy wszystkie piętnaście są w bazie (§4.3).")
    no_hit_there = illegal(
        Label("No hit there", "Tu nic nie zbito"),
        "Zapis zaznacza zbicie (*) na polu {got}, ale nie stoi tam blotka przeciwnika.",
        "The notation marks a hit (*) on a point where the play hits no blot. Drop the mark or fix the point.",
        "Zapis zaznacza zbicie (*) na polu, na którym ruch niczego nie zbija. Usuń znak albo popraw pole.")
    dice_mismatch = illegal(
        Label("Dice not rolled", "Inne oczka niż wyrzucone"),
        "Tego ruchu nie da się złożyć z wyrzuconych oczek {expected}.",
        "A step's distance is no rolled die (or sum of dice). Play the numbers rolled (§4.6).",
        "Długość kroku nie odpowiada żadnej wyrzuconej kostce (ani sumie kostek). Zagraj wyrzucone oczka (§4.6).")
    must_use_all_dice = illegal(
        Label("Use all the dice", "Trzeba zagrać wszystkie oczka"),
        "Da się zagrać {expected} kostki, a ruch wykorzystuje {got}: trzeba zagrać wszystkie.",
        "The play uses fewer dice than can be played; as many as possible must be used (§4.4).",
        "Ruch wykorzystuje mniej kostek, niż da się zagrać; trzeba zagrać jak najwięcej (§4.4).")
    must_use_larger_die = illegal(
        Label("Use the larger die", "Trzeba zagrać większą kostką"),
        "Można zagrać tylko jedną kostką, więc trzeba zagrać większą: {expected}.",
        "Only one die can be played and either could be: the larger must be played (§4.5).",
        "Da się zagrać tylko jedną kostką, a pasuje każda: trzeba zagrać większą (§4.5).")
    illegal_play = illegal(
        Label("Illegal play", "Niedozwolony ruch"), "Ten ruch nie jest dozwolony przy rzucie {expected}.",
        "The play's result is not the result of any legal play of the dice. `legal-moves` lists them.",
        "Wynik ruchu nie jest wynikiem żadnego dozwolonego ruchu tym rzutem. Listę podaje `legal-moves`.")

    # -- doubling cube and resignation -----------------------------------------------------
    cube_disabled = illegal(
        Label("Cube not in use", "Bez kostki dublującej"), "W tej grze nie używa się kostki dublującej.",
        "The doubling cube is off in this game (the `cube` option; `auto` is off in a money game).",
        "W tej grze nie ma kostki dublującej (opcja `cube`; `auto` wyłącza ją w grze na pieniądze).")
    crawford_game = illegal(
        Label("Crawford game", "Partia Crawforda"), "W partii Crawforda nie wolno dublować.",
        "No doubling in the Crawford game (§7).", "W partii Crawforda nie wolno dublować (§7).")
    not_cube_owner = illegal(
        Label("Not the cube owner", "Kostka u przeciwnika"),
        "Kostkę dublującą ma gracz {seat}: tylko on może ją podnieść.",
        "Only the cube's owner (or anyone while it is in the middle) may double.",
        "Dublować może tylko właściciel kostki (albo każdy, gdy kostka leży na środku).")
    max_cube = illegal(
        Label("Cube at its maximum", "Kostka na maksimum"),
        "Kostka dublująca na {got} przekroczyłaby ustalone maksimum.",
        "The double, beaver or raccoon would pass the `max_cube` option (§6.6).",
        "Dublowanie, bóbr lub szop przekroczyłyby opcję `max_cube` (§6.6).")
    double_after_roll = illegal(
        Label("Double before rolling", "Dublowanie przed rzutem"),
        "Dublować można tylko na początku swojej kolejki, przed rzutem.",
        "A double is offered at the start of one's own turn, before rolling (§6.1).",
        "Dublowanie proponuje się na początku własnej kolejki, przed rzutem (§6.1).")
    double_pending = illegal(
        Label("A double is offered", "Zaproponowano dublowanie"),
        "Zaproponowano kostkę na {expected}: przyjmij, odrzuć albo odpowiedz bobrem, nie „{got}”.",
        "A double waits for its answer: `take`, `drop` (or `beaver` where allowed).",
        "Dublowanie czeka na odpowiedź: `take`, `drop` (albo `beaver`, gdy dozwolony).")
    no_double_offered = illegal(
        Label("No double offered", "Nikt nie dublował"),
        "Nikt nie zaproponował dublowania: „{got}” nie ma na co odpowiadać.",
        "`take`, `drop`, `beaver` and `raccoon` answer a double; none is offered.",
        "`take`, `drop`, `beaver` i `raccoon` odpowiadają na dublowanie; nikt go nie zaproponował.")
    beaver_not_allowed = illegal(
        Label("Beavers not in play", "Bez bobrów"),
        "Bóbr (natychmiastowe przebicie) to opcja gry na pieniądze i nie jest włączony.",
        "Beavers are a money-play option (`beaver`) and it is off.",
        "Bobry to opcja gry na pieniądze (`beaver`) i jest wyłączona.")
    beaver_pending = illegal(
        Label("A beaver waits", "Czeka bóbr"),
        "Gracz {seat} odpowiedział bobrem: przyjmij, odrzuć albo odpowiedz szopem, nie „{got}”.",
        "A beaver waits for the doubler's answer: `take`, `drop` (or `raccoon` where allowed).",
        "Bóbr czeka na odpowiedź dublującego: `take`, `drop` (albo `raccoon`, gdy dozwolony).")
    raccoon_not_allowed = illegal(
        Label("Raccoons not in play", "Bez szopów"),
        "Szop (przebicie bobra) to opcja gry na pieniądze i nie jest włączony.",
        "Raccoons are a money-play option (`raccoon`, with beavers) and it is off.",
        "Szopy to opcja gry na pieniądze (`raccoon`, razem z bobrami) i jest wyłączona.")
    raccoon_pending = illegal(
        Label("A raccoon waits", "Czeka szop"),
        "Gracz {seat} odpowiedział szopem: przyjmij albo odrzuć, nie „{got}”.",
        "A raccoon waits for the beaverer's answer: `take` or `drop`.",
        "Szop czeka na odpowiedź gracza, który dał bobra: `take` albo `drop`.")
    resignation_pending = illegal(
        Label("A resignation is offered", "Propozycja poddania"),
        "Gracz {seat} proponuje poddanie partii: przyjmij albo odrzuć, nie „{got}”.",
        "A resignation waits for its answer: `accept-resignation` or `reject-resignation`.",
        "Propozycja poddania czeka na odpowiedź: `accept-resignation` albo `reject-resignation`.")
    no_resignation_offered = illegal(
        Label("No resignation offered", "Nikt się nie poddaje"),
        "Nikt nie proponuje poddania: „{got}” nie ma na co odpowiadać.",
        "`accept-resignation` and `reject-resignation` answer a resignation; none is offered.",
        "`accept-resignation` i `reject-resignation` odpowiadają na poddanie; nikt go nie proponuje.")

    # -- states, setups, tallies -------------------------------------------------------------
    checker_count = invalid(
        Label("Wrong number of checkers", "Zła liczba pionków"),
        "Gracz {seat} ma {got} pionków na planszy, bandzie i zdjętych; powinien mieć {expected}.",
        "Each side has exactly fifteen checkers on the points, the bar and off.",
        "Każdy gracz ma dokładnie piętnaście pionków na polach, bandzie i zdjętych.")
    shared_point = invalid(
        Label("Point held by both sides", "Pole obu graczy"), "Na jednym polu stoją pionki obu graczy.",
        "A point holds checkers of both sides (a seat's point p is the other's 25 - p).",
        "Na jednym polu stoją pionki obu graczy (pole p jednego gracza to pole 25 - p drugiego).")
    bad_turn = invalid(
        Label("Impossible turn", "Niemożliwa kolejka"),
        "Faza gry, kolejka, kostki i propozycje w stanie gry się wykluczają.",
        "The phase, the seat on turn, the dice and the offers contradict each other; no play reaches the state.",
        "Faza, kolejka, kostki i propozycje wykluczają się; żadna gra nie prowadzi do takiego stanu.")
    bad_cube = invalid(
        Label("Impossible cube", "Niemożliwa kostka dublująca"),
        "Wartość, właściciel lub propozycja kostki dublującej są niemożliwe w tej grze.",
        "The cube's value, owner or pending answer is impossible with the game's options (§6).",
        "Wartość, właściciel lub oczekująca odpowiedź kostki są niemożliwe przy opcjach tej gry (§6).")
    bad_result = invalid(
        Label("Impossible result", "Niemożliwy wynik partii"), "Wynik partii nie zgadza się z planszą i kostką.",
        "The result disagrees with the board, the cube or the phase (§5).",
        "Wynik partii nie zgadza się z planszą, kostką albo fazą gry (§5).")
    bad_score = invalid(
        Label("Impossible score", "Niemożliwy wynik meczu"), "Wynik meczu nie zgadza się z przebiegiem gry.",
        "The match score is impossible: past the match length, or not where the phase says (§7).",
        "Wynik meczu jest niemożliwy: przekracza długość meczu albo nie zgadza się z fazą gry (§7).")
    bad_crawford = invalid(
        Label("Impossible Crawford flags", "Błędna partia Crawforda"),
        "Oznaczenia partii Crawforda nie zgadzają się z wynikiem meczu.",
        "The Crawford flags disagree with the match score or the options (§7).",
        "Oznaczenia partii Crawforda nie zgadzają się z wynikiem meczu albo opcjami (§7).")
    bad_round = invalid(
        Label("Impossible game counter", "Niemożliwy numer partii"),
        "Numer partii nie zgadza się z wynikiem: oczekiwano co najmniej {expected}, jest {got}.",
        "`round` disagrees with the match score (each finished game scores a point at least); money play has one.",
        "`round` nie zgadza się z wynikiem meczu (każda skończona partia daje co najmniej punkt); gra na pieniądze "
        "ma jedną partię.")
    id_mismatch = invalid(
        Label("IDs disagree", "Niezgodne identyfikatory"),
        "Position ID, Match ID, XGID lub liczba oczek nie zgadzają się z planszą.",
        "A derived value sent with the state (position_id, match_id, xgid, pips) is not what the rest of the "
        "state gives. Send it as the service wrote it, or leave it out.",
        "Wartość wyliczana wysłana ze stanem (position_id, match_id, xgid, pips) nie wynika z reszty stanu. "
        "Wyślij ją tak, jak zapisała ją usługa, albo pomiń.")
    bad_position_id = invalid(
        Label("Bad Position ID", "Błędny Position ID"), "Position ID jest nieczytelny lub niemożliwy.",
        "The setup's Position ID is not GNU BG's 14-character ID of a possible position (§9.1).",
        "Position ID w ustawieniu nie jest 14-znakowym identyfikatorem GNU BG możliwej pozycji (§9.1).")
    bad_match_id = invalid(
        Label("Bad Match ID", "Błędny Match ID"), "Match ID jest nieczytelny lub niemożliwy.",
        "The setup's Match ID is not GNU BG's 12-character ID of a possible match state (§9.2).",
        "Match ID w ustawieniu nie jest 12-znakowym identyfikatorem GNU BG możliwego stanu meczu (§9.2).")
    bad_xgid = invalid(
        Label("Bad XGID", "Błędny XGID"), "XGID jest nieczytelny lub niemożliwy.",
        "The setup's XGID is not eXtreme Gammon's ID of a possible position (§9.3).",
        "XGID w ustawieniu nie jest identyfikatorem eXtreme Gammon możliwej pozycji (§9.3).")
    bad_setup = invalid(
        Label("Bad setup", "Błędne ustawienie"), "Ustawienia początkowego nie da się użyć: {field}.",
        "`setup` is {position_id, match_id?} or {xgid}, of a position the options allow (§9.4).",
        "`setup` to {position_id, match_id?} albo {xgid}, z pozycją dozwoloną przez opcje (§9.4).", error=InvalidOption)
    setup_game_over = invalid(
        Label("Setup of a finished game", "Ustawienie skończonej partii"),
        "Ustawienie opisuje skończoną partię: nie da się od niego zacząć gry.",
        "The setup describes a finished game; start from a position still being played.",
        "Ustawienie opisuje skończoną partię; zacznij od pozycji, w której gra jeszcze trwa.")
    winner_not_off = invalid(
        Label("Winner still has checkers", "Zwycięzca ma pionki"),
        "Gracz {seat} ma zdjętych {got} z {expected} pionków: nie wygrał.",
        "The tally's winner has not borne off all fifteen checkers (§10).",
        "Zwycięzca w podliczeniu nie zdjął wszystkich piętnastu pionków (§10).")

    # -- match records: declared in rules/backgammon/_records.py (DESIGN 4.3), answered as backgammon's
    bad_record = RecordCodes.bad_record
    record_score_mismatch = RecordCodes.record_score_mismatch
    record_result_mismatch = RecordCodes.record_result_mismatch
    record_illegal_play = RecordCodes.record_illegal_play
