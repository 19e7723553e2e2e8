"""Every error code the Kanasta engine raises (DESIGN 4.4), in the Polish rulebook's own terms:
talon (stock), stos (discard pile), kupić stos (take the pile), układ (meld), kanasta,
dżoker (wild card: the Joker or a two), otwarcie (opening), skończyć grę (go out), rozdanie (round).

``detail_pl`` formats with the context the raise passes: ``card``, ``seat``, ``expected``, ``got``.
The shared ideas (not-your-turn, no-such-seat, game-over, malformed-move, bad-state, round-over,
round-not-over, setup-unsupported, bad-tally, seat-count) come from ``rules.base``.
"""

from __future__ import annotations

from rules.base import (
    BAD_TALLY,
    ROUND_NOT_OVER,
    ROUND_OVER,
    SEAT_COUNT,
    SETUP_UNSUPPORTED,
    GameCodes,
    Label,
    illegal,
    invalid,
)

G = "canasta"


_STATE_EN = " The state cannot be reached by play: send a state as the service wrote it."
_STATE_PL = " Takiego stanu nie da się osiągnąć w grze: wyślij stan w postaci, w jakiej zapisała go usługa."
_SHEET_EN = " Correct the score sheet."
_SHEET_PL = " Popraw zapis wyniku."


class C(GameCodes, namespace=G):
    """Every code Kanasta answers."""

    round_over = ROUND_OVER
    round_not_over = ROUND_NOT_OVER
    setup_unsupported = SETUP_UNSUPPORTED
    bad_tally = BAD_TALLY
    seat_count = SEAT_COUNT

    # -- turn and phase
    wrong_phase = illegal(
        Label("Not allowed in this phase", "Nie w tej fazie"), "Tego ruchu nie można wykonać w tej fazie rozdania.",
        "The move is not one of this phase's: draw, take the discard pile or ask in the draw phase; meld, discard "
        "or ask in the play phase; answer in the answer phase; go out double or decline in the double phase.",
        "Ten ruch nie należy do bieżącej fazy: w fazie dobierania dobiera się kartę, kupuje stos albo pyta "
        "partnera; w fazie gry wykłada, zrzuca albo pyta; potem partner odpowiada albo kończy podwójnie.")
    stock_empty = illegal(
        Label("The stock is empty", "Talon jest pusty"), "W talonie nie ma już kart: kup stos albo zakończ rozdanie.",
        "A draw was sent with no card left in the stock. Take the discard pile or send `end-round`.",
        "Próba dobrania karty z pustego talonu. Kup stos albo wyślij `end-round`.")
    stock_not_empty = illegal(
        Label("The stock is not empty", "Talon nie jest pusty"),
        "W talonie jest jeszcze {got} kart: rozdanie trwa, dobierz kartę.",
        "`end-round` is only for a player who cannot draw because the stock is used up. Draw a card instead.",
        "`end-round` jest tylko dla gracza, który nie może dobrać, bo talon się skończył. Dobierz kartę.")
    # -- asking the partner
    no_partner = illegal(
        Label("No partner to ask", "Brak partnera"), "W grze bez par nie ma kogo zapytać, czy można kończyć.",
        "Only the four-player game has partners; with two or three players nobody is asked.",
        "Partnerów ma tylko gra w cztery osoby; w grze dwu- lub trzyosobowej nikogo się nie pyta.")
    already_asked = illegal(
        Label("Already asked", "Już pytano"), "O zgodę na skończenie gry można zapytać raz w kolejce.",
        "\"May I go out?\" may be asked once per turn (K-10). Abide by the answer given.",
        "Pytanie „czy mogę skończyć?” można zadać raz w kolejce (K-10). Trzeba zastosować się do odpowiedzi.")
    ask_before_melding = illegal(
        Label("Ask before melding", "Pytanie przed wykładaniem"),
        "O skończenie gry pyta się partnera, zanim wyłoży się karty w tej kolejce.",
        "The question comes before any meld of this turn. Go on without asking.",
        "Pytanie zadaje się przed wyłożeniem kart w tej kolejce. Graj dalej bez pytania.")
    ask_too_late = illegal(
        Label("Too late to ask", "Za późno na pytanie"),
        "Z jedną kartą po kupieniu stosu gracz już kończy grę: pytanie jest spóźnione.",
        "Holding one card after taking the discard pile, the player is going out by discarding it: no question.",
        "Gracz z jedną kartą po kupieniu stosu kończy grę, zrzucając ją: nie pyta już partnera.")
    partner_said_no = illegal(
        Label("The partner said no", "Partner odpowiedział: nie"),
        "Partner nie zgodził się na skończenie gry: w tej kolejce nie wolno kończyć.",
        "The partner answered no to \"may I go out?\": this turn must not go out. Keep a card.",
        "Partner odpowiedział „nie”: w tej kolejce nie wolno skończyć gry. Zostaw kartę w ręku.")
    must_go_out = illegal(
        Label("Must go out", "Trzeba skończyć"),
        "Partner odpowiedział „tak”: gracz może skończyć grę, więc zrzucenie {card} bez skończenia jest "
        "niedozwolone.",
        "The partner answered yes and going out is possible: this turn must end by going out.",
        "Partner odpowiedział „tak”, a skończenie jest możliwe: ta kolejka musi zakończyć grę.")
    # -- the discard pile
    discard_empty = illegal(
        Label("The discard pile is empty", "Stos jest pusty"), "Na stosie nie ma kart do kupienia.",
        "There is no card on the discard pile to take. Draw from the stock.",
        "Na stosie nie ma karty do wzięcia. Dobierz kartę z talonu.")
    one_card_rule = illegal(
        Label("One card in hand", "Jedna karta w ręku"),
        "Gracz, który ma w ręku jedną kartę ({card}), nie może wziąć pasującej mu karty ze stosu.",
        "A player holding one card may not take a discard pile of one card (or any pile, by option "
        "`one_card_rule`, K-4). Draw from the stock.",
        "Gracz z jedną kartą w ręku nie może kupić stosu z jedną kartą (albo żadnego, według opcji "
        "`one_card_rule`, K-4). Dobierz z talonu.")
    discard_blocked_black_three = illegal(
        Label("Blocked by a black three", "Stos zablokowany czarną trójką"),
        "Wierzchnia karta stosu to czarna trójka ({card}): nikt nie może go teraz kupić.",
        "A black three on top of the discard pile blocks it for the next player. Draw from the stock.",
        "Czarna trójka na wierzchu stosu blokuje go dla następnego gracza. Dobierz z talonu.")
    discard_blocked_wild = illegal(
        Label("Blocked by a wild card", "Stos zablokowany dżokerem"),
        "Wierzchnia karta stosu to dżoker ({card}): stosu nie można teraz kupić.",
        "A wild card on top of the discard pile cannot be matched. Draw from the stock.",
        "Do dżokera na wierzchu stosu nie można dobrać kart. Dobierz z talonu.")
    discard_blocked_canasta = illegal(
        Label("Blocked by a canasta", "Stos zablokowany kanastą"),
        "Wyłożona kanasta w wysokości wierzchniej karty ({card}) blokuje stos.",
        "A canasta of the top card's rank blocks the discard pile (for its own side, or for everyone by option "
        "`canasta_blocks_discard`, K-3). Draw from the stock.",
        "Kanasta w wysokości wierzchniej karty blokuje stos (dla własnej drużyny albo dla wszystkich według "
        "opcji `canasta_blocks_discard`, K-3). Dobierz z talonu.")
    discard_closed = illegal(
        Label("The discard pile is closed", "Stos zamknięty"),
        "Stos jest zamknięty: można go kupić tylko na dwie naturalne karty w wysokości {card} z ręki.",
        "The pile is closed (the side has not opened, or a wild card lies in it): show two natural cards of the "
        "top card's rank from the hand.",
        "Stos jest zamknięty (drużyna nie otworzyła gry albo leży w nim dżoker): pokaż z ręki dwie naturalne "
        "karty w wysokości wierzchniej karty.")
    discard_needs_match = illegal(
        Label("Nothing matches the top card", "Brak kart do stosu"),
        "Aby kupić stos z {card} na wierzchu, trzeba pokazać dwie takie karty, jedną i dżokera albo dołożyć ją do "
        "własnego układu.",
        "Taking an open pile needs two naturals of the top card's rank, one natural and a wild card, or a meld of "
        "that rank to add it to.",
        "Otwarty stos kupuje się na dwie naturalne karty wysokości wierzchniej karty, jedną i dżokera albo "
        "dokładając ją do własnego układu.")
    using_not_of_rank = illegal(
        Label("Card does not match the top card", "Karta nie pasuje do stosu"),
        "Karty {card} nie można pokazać do wierzchniej karty stosu ({expected}).",
        "The cards in `using` are naturals of the top card's rank or wild cards. Show only those.",
        "Karty w `using` to naturalne karty wysokości wierzchniej karty albo dżokery. Pokaż tylko takie.")
    must_meld_all = illegal(
        Label("Meld every card", "Trzeba wyłożyć wszystkie karty"),
        "Wierzchnią kartę stosu bierze się samą tylko po to, by skończyć grę: trzeba wyłożyć wszystkie karty z "
        "ręki.",
        "`take-top-to-go-out` melds the whole hand with the top card. Meld every card, or take the whole pile.",
        "`take-top-to-go-out` wykłada całą rękę z wierzchnią kartą. Wyłóż wszystkie karty albo kup cały stos.")
    use_take_top = illegal(
        Label("Use take-top-to-go-out", "Weź tylko wierzchnią kartę"),
        "Kupno stosu opróżniłoby rękę: aby skończyć grę, weź tylko wierzchnią kartę.",
        "This take would leave no card in the hand. To go out with the top card, send `take-top-to-go-out`.",
        "To kupno opróżniłoby rękę. Aby skończyć z wierzchnią kartą, wyślij `take-top-to-go-out`.")
    must_keep_card = illegal(
        Label("Must keep a card", "Trzeba zostawić kartę"),
        "Każdy gracz przed skończeniem gry musi mieć w ręku co najmniej jedną kartę, a teraz nie może jeszcze "
        "skończyć.",
        "The move would leave one card to discard as going out, but the side may not go out yet. Keep more cards.",
        "Ruch zostawiłby jedną kartę do zrzucenia na skończenie, a drużyna nie może jeszcze skończyć. Zostaw "
        "więcej kart.")
    # -- melds
    below_minimum = illegal(
        Label("Below the opening minimum", "Za mało do otwarcia"),
        "Pierwsze wyłożenie nie osiąga minimum punktowego dla otwarcia ({expected}).",
        "A side's first melds in a round must reach the opening minimum for its total (§6). Meld more points.",
        "Pierwsze wyłożenie drużyny w rozdaniu musi osiągnąć minimum dla jej wyniku (§6). Wyłóż więcej punktów.")
    no_canasta = illegal(
        Label("No canasta", "Brak kanasty"),
        "Skończyć grę można tylko z wyłożoną kanastą (potrzeba {expected}, jest {got}).",
        "Going out needs a canasta on the side's table (two with two or three players). Keep a card.",
        "Skończyć można tylko z kanastą na stole drużyny (dwiema w grze dwu- i trzyosobowej). Zostaw kartę.")
    empty_meld = illegal(
        Label("Nothing to meld", "Nic do wyłożenia"), "Wykładając, trzeba położyć co najmniej jeden układ.",
        "A `meld` move lists at least one group.", "Ruch `meld` zawiera co najmniej jeden układ.")
    empty_group = illegal(
        Label("Empty group", "Pusty układ"), "Układ musi zawierać karty.",
        "Each group of a move names at least one card.", "Każdy układ w ruchu zawiera co najmniej jedną kartę.")
    duplicate_rank = illegal(
        Label("Two groups of one rank", "Dwa układy tej samej wysokości"),
        "W jednym ruchu karty w wysokości {expected} tworzą jeden układ.",
        "One move holds one group per rank (with a take, the top card's rank goes in `using`). Merge the groups.",
        "Jeden ruch ma jeden układ danej wysokości (przy kupnie stosu wysokość wierzchniej karty idzie do "
        "`using`). Połącz układy.")
    one_meld_per_rank = illegal(
        Label("One meld per rank", "Jeden układ na wysokość"),
        "Drużyna ma już układ w wysokości {expected}: wolno mieć tylko jeden.",
        "A side holds one meld per rank (K-6, option `one_meld_per_rank`): add the cards to it instead of "
        "marking the group `new`.",
        "Drużyna ma jeden układ danej wysokości (K-6, opcja `one_meld_per_rank`): dołóż karty do niego zamiast "
        "oznaczać układ jako `new`.")
    not_of_rank = illegal(
        Label("Card of another rank", "Karta innej wysokości"), "Karta {card} nie pasuje do układu w wysokości {expected}.",
        "A meld holds naturals of its rank and wild cards only.",
        "Układ zawiera tylko naturalne karty swojej wysokości i dżokery.")
    three_in_meld = illegal(
        Label("A three in a meld", "Trójka w układzie"), "Trójka ({card}) nigdy nie wchodzi do zwykłego układu.",
        "Threes never go into an ordinary meld; black threes are melded as their own set when going out.",
        "Trójki nie wchodzą do zwykłych układów; czarne trójki wykłada się osobno przy kończeniu.")
    bad_black_threes = illegal(
        Label("Bad black-three set", "Zły układ czarnych trójek"),
        "Czarne trójki wykłada się tylko jako jeden układ trzech lub czterech trójek, bez dżokerów.",
        "Black threes are melded as one set of three or four black threes, no wild cards.",
        "Czarne trójki wykłada się jako jeden układ trzech lub czterech czarnych trójek, bez dżokerów.")
    black_threes_only_going_out = illegal(
        Label("Black threes only when going out", "Czarne trójki tylko na koniec"),
        "Czarnych trójek nie wolno wykładać w trakcie gry, tylko w chwili kończenia.",
        "Black threes are melded only by the move that goes out by melding the last cards.",
        "Czarne trójki wykłada się tylko ruchem, który kończy grę wyłożeniem ostatnich kart.")
    too_few_cards = illegal(
        Label("Too few cards", "Za mało kart"), "Nowy układ to co najmniej trzy karty.",
        "A new meld holds at least three cards.", "Nowy układ to co najmniej trzy karty.")
    too_few_naturals = illegal(
        Label("Too few natural cards", "Za mało kart naturalnych"), "Układ potrzebuje co najmniej dwóch kart naturalnych.",
        "A meld holds at least two natural cards.", "Układ zawiera co najmniej dwie karty naturalne.")
    too_many_wilds = illegal(
        Label("Too many wild cards", "Za dużo dżokerów"), "W układzie może być najwyżej {expected} dżokerów, a byłoby {got}.",
        "A meld holds no more wild cards than naturals, and at most three (K-5, option `max_three_wilds`).",
        "Układ ma nie więcej dżokerów niż kart naturalnych i najwyżej trzy (K-5, opcja `max_three_wilds`).")
    card_not_in_hand = illegal(
        Label("Card not in hand", "Brak karty w ręku"), "Gracz nie ma w ręku karty {card}.",
        "The move names a card the player does not hold. Use cards from the hand.",
        "Ruch wskazuje kartę, której gracz nie ma. Użyj kart z ręki.")
    double_not_all = illegal(
        Label("Double going out is all or nothing", "Podwójne skończenie: wszystko albo nic"),
        "Przy podwójnym skończeniu partner wykłada wszystkie karty albo żadnej.",
        "`double-go-out` melds every card of the partner's hand; otherwise send `decline-double`.",
        "`double-go-out` wykłada wszystkie karty partnera; inaczej wyślij `decline-double`.")
    # -- states: the checks of meaning (the shape is `bad-state`)
    bad_sides = invalid(
        Label("Wrong sides", "Złe drużyny"), "Stan musi zawierać {expected} drużyn (par lub graczy).",
        "`sides` lists one entry per side: two pairs with four players, one per player otherwise." + _STATE_EN,
        "`sides` ma jeden wpis na drużynę: dwie pary przy czterech graczach, inaczej jeden na gracza." + _STATE_PL)
    bad_meld = invalid(
        Label("Impossible meld", "Niemożliwy układ"), "Układ na stole jest niezgodny z zasadami.",
        "A meld on the table breaks the meld rules, repeats a rank, or shows black threes of a side that did not "
        "go out." + _STATE_EN,
        "Układ na stole łamie zasady układów, powtarza wysokość albo pokazuje czarne trójki drużyny, która nie "
        "skończyła." + _STATE_PL)
    bad_red_threes = invalid(
        Label("Not a red three", "To nie czerwona trójka"), "Przed drużyną leżą tylko czerwone trójki.",
        "A side's `red_threes` holds red threes only." + _STATE_EN,
        "`red_threes` drużyny zawiera tylko czerwone trójki." + _STATE_PL)
    cards_not_conserved = invalid(
        Label("Cards not conserved", "Karty się nie zgadzają"),
        "W grze jest 108 kart, każda dokładnie raz; nie zgadza się między innymi {card}.",
        "The state must hold the 108 cards (two packs and four jokers) exactly once each." + _STATE_EN,
        "Stan musi zawierać 108 kart (dwie talie i cztery dżokery), każdą dokładnie raz." + _STATE_PL)
    red_three_in_hand = invalid(
        Label("Red three kept in hand", "Czerwona trójka w ręku"),
        "Gracz {seat} trzyma czerwoną trójkę, którą powinien był wyłożyć.",
        "Red threes wait in a hand only while `red_threes_pending` says so, before the owner's first turn (K-9)."
        + _STATE_EN,
        "Czerwona trójka czeka w ręku tylko przed pierwszą kolejką właściciela, gdy mówi tak "
        "`red_threes_pending` (K-9)." + _STATE_PL)
    bad_turn = invalid(
        Label("Impossible turn", "Niemożliwa kolejka"),
        "Faza, kolejka i to, co gracz już zrobił w tej kolejce, nie zgadzają się ze sobą.",
        "The phase, `turn` and this turn's flags (`drew`, `asked`, `meld_moves`, `concealed_melds`, `buying`, "
        "`ending`, `out_seat`) contradict each other." + _STATE_EN,
        "Faza, `turn` i znaczniki tej kolejki (`drew`, `asked`, `meld_moves`, `concealed_melds`, `buying`, "
        "`ending`, `out_seat`) przeczą sobie." + _STATE_PL)
    bad_hand_size = invalid(
        Label("Impossible hand size", "Niemożliwa liczba kart"),
        "Gracz {seat} nie może mieć teraz tylu kart w ręku (powinien mieć {expected}).",
        "A player who has laid nothing holds the dealt number of cards; an empty hand is one that went out."
        + _STATE_EN,
        "Gracz, który nic nie wyłożył, ma tyle kart, ile rozdano; pustą rękę ma tylko ten, kto skończył."
        + _STATE_PL)
    bad_laid = invalid(
        Label("Laid cards disagree with the table", "Wyłożone karty nie zgadzają się ze stołem"),
        "Znacznik wykładania gracza {seat} nie zgadza się z układami jego drużyny.",
        "`laid` says a seat laid cards exactly when its side has melds one of its players laid." + _STATE_EN,
        "`laid` mówi, że gracz wykładał, dokładnie wtedy, gdy jego drużyna ma układy wyłożone przez jej "
        "graczy." + _STATE_PL)
    bad_total = invalid(
        Label("Impossible score", "Niemożliwy wynik"),
        "Wyniki drużyn nie zgadzają się z przebiegiem gry (oczekiwano: {expected}).",
        "The sides' totals are the sums of `history`, one row per finished round, the last what the table "
        "scores; the game is over exactly when one side alone reached the target." + _STATE_EN,
        "Wyniki drużyn to sumy wierszy `history`, po jednym na skończone rozdanie, a ostatni to wynik ze stołu; "
        "gra kończy się dokładnie wtedy, gdy jedna drużyna sama osiągnęła cel." + _STATE_PL)
    bad_discard = invalid(
        Label("Impossible discard pile", "Niemożliwy stos"),
        "Stos jest niezgodny z zasadami: zamyka go tylko leżący w nim dżoker, a na wierzchu nie leży czerwona "
        "trójka.",
        "The discard pile is closed only by a wild card in it, and a red three never lies on top." + _STATE_EN,
        "Stos zamyka tylko leżący w nim dżoker, a czerwona trójka nigdy nie leży na wierzchu." + _STATE_PL)
    # -- score sheets (tally): the checks of meaning (the shape is `bad-tally`)
    tally_bad_meld = invalid(
        Label("Impossible meld on the score sheet", "Niemożliwy układ w zapisie"),
        "Układ w zapisie wyniku jest niezgodny z zasadami.",
        "A meld on the sheet breaks the meld rules or repeats a rank." + _SHEET_EN,
        "Układ w zapisie łamie zasady układów albo powtarza wysokość." + _SHEET_PL)
    tally_red_three_in_hand = invalid(
        Label("Red three in a hand", "Czerwona trójka w ręku"),
        "Czerwonej trójki nie zostawia się w ręku: zawsze leży przed graczem.",
        "Red threes are counted in `red_threes`, never in a hand." + _SHEET_EN,
        "Czerwone trójki liczy się w `red_threes`, nigdy w ręku." + _SHEET_PL)
    tally_black_threes_without_going_out = invalid(
        Label("Black threes without going out", "Czarne trójki bez skończenia"),
        "Czarne trójki wykłada tylko drużyna, która kończy grę.",
        "Only the side that went out may show a black-three set." + _SHEET_EN,
        "Układ czarnych trójek może mieć tylko drużyna, która skończyła." + _SHEET_PL)
    tally_bonus_without_going_out = invalid(
        Label("Bonus without going out", "Premia bez skończenia"),
        "Premia za podwójne skończenie lub skończenie z ręki wymaga skończenia gry.",
        "`double` and `concealed` describe a going out: set `went_out` too." + _SHEET_EN,
        "`double` i `concealed` opisują skończenie: ustaw też `went_out`." + _SHEET_PL)
    tally_stock_no_going_out = invalid(
        Label("Going out after the stock ran out", "Skończenie po wyczerpaniu talonu"),
        "Gdy skończył się talon, nikt nie kończy gry i nie ma premii za skończenie.",
        "A round that ended by the stock (`ended: stock`) has no side that went out." + _SHEET_EN,
        "Rozdanie zakończone wyczerpaniem talonu (`ended: stock`) nie ma drużyny, która skończyła." + _SHEET_PL)
    tally_out_without_canasta = invalid(
        Label("Going out without a canasta", "Skończenie bez kanasty"), "Drużyna skończyła grę bez wymaganej kanasty.",
        "The side that went out shows the canasta(s) going out needs." + _SHEET_EN,
        "Drużyna, która skończyła, musi mieć wymaganą kanastę (lub dwie)." + _SHEET_PL)
    tally_out_with_cards = invalid(
        Label("Going out with cards in hand", "Skończenie z kartami w ręku"),
        "Drużyna, która skończyła grę, ma gracza bez kart w ręku.",
        "The side that went out has a player with an empty hand." + _SHEET_EN,
        "Drużyna, która skończyła, ma gracza z pustą ręką." + _SHEET_PL)
    tally_double = invalid(
        Label("Impossible double going out", "Niemożliwe podwójne skończenie"),
        "Podwójne skończenie opróżnia ręce obu partnerów.",
        "A double going out (four players only) empties both partners' hands." + _SHEET_EN,
        "Podwójne skończenie (tylko w grze czteroosobowej) opróżnia ręce obu partnerów." + _SHEET_PL)
    tally_who_went_out = invalid(
        Label("Who went out", "Kto skończył"), "Gdy rozdanie kończy się skończeniem gry, kończy dokładnie jedna drużyna.",
        "A round ended by going out (`ended: out`) has exactly one side with `went_out`." + _SHEET_EN,
        "Rozdanie zakończone skończeniem (`ended: out`) ma dokładnie jedną drużynę z `went_out`." + _SHEET_PL)
    tally_cards = invalid(
        Label("Too many cards", "Za dużo kart"), "Zapis wyniku liczy więcej kart, niż mają dwie talie.",
        "The sheet counts more cards (or red threes) than two packs and four jokers hold." + _SHEET_EN,
        "Zapis liczy więcej kart (albo czerwonych trójek), niż mają dwie talie i cztery dżokery." + _SHEET_PL)
