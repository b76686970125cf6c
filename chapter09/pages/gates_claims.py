"""Page 07's rows of the claims registry: the author's statements that the page checks, the check
that judges each on the numbers it reads, and the author's sentences as the page mends them.

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w7_topk_gap}``),
which :func:`chapter09.pages.gates.readout` computes.
"""

from __future__ import annotations

from .. import fmt
from .. import gates as w7
from ..claim import Claim, Correction, judge

__all__ = ["claims", "corrections"]

SAME_FORM_TOL = 1e-15  # SwiGLU reaches σ(a)⊙b to within this (fp64 rounding)
FP64_ROUNDING = 2.0**-51  # "l'arrodoniment de fp64": a few units of 2⁻⁵³ at most
SWITCHED_OFF_SAID = "88" + fmt.NBSP + "%"  # "el router apaga el 88 % dels canals"
TOPK_JUMP = 0.1  # "la diferència salta": well above any rounding


def _same_form(lstm_bitwise: bool, moe_bitwise: bool, swiglu_gap: float) -> bool:
    """W7.1: with their parameters matched, the LSTM, the MoE and SwiGLU all compute σ(a)⊙b."""
    return lstm_bitwise and moe_bitwise and swiglu_gap < SAME_FORM_TOL


def _same_bits(lstm_gap: float, moe_gap: float) -> bool:
    """W7.2: the LSTM and the MoE differ from σ(a)⊙b by an exact zero."""
    return lstm_gap == 0.0 and moe_gap == 0.0


def _rounding_gap(swiglu_gap: float) -> bool:
    """W7.3: SwiGLU differs from σ(a)⊙b, by no more than fp64 rounding."""
    return 0 < swiglu_gap <= FP64_ROUNDING


def _router_switches_off(switched_off_text: str, topk_gap: float) -> bool:
    """W7.4: top-2 of 16 switches off 88 % of the channels and the difference jumps."""
    return switched_off_text == SWITCHED_OFF_SAID and topk_gap > TOPK_JUMP


def _swish_leaves_the_unit_interval(swish_range: tuple, sigmoid_range: tuple) -> bool:
    """W7.5: Swish(a) goes below 0 and above 1, where σ(a) stays strictly between them."""
    return swish_range[0] < 0 and swish_range[1] > 1 and 0 < sigmoid_range[0] and sigmoid_range[1] < 1


def claims(g: w7.Gates, rob: w7.Robustness, switched_off_text: str) -> tuple[Claim, ...]:
    """The author's statements W7.1 … W7.5, each judged by its check on the numbers it reads: the page's
    draw (``g``), the seeds (``rob``) and the share of channels switched off as the page prints it
    (``switched_off_text``)."""
    return (
        Claim(
            "W7.1",
            "LSTM, MoE i SwiGLU tenen la mateixa forma σ(a)⊙b.",
            "method",
            "amb els paràmetres igualats, les tres arriben a σ(a)⊙b; sense biaix, les portes σ(a), la softmax "
            "i els logits trien els mateixos experts ({w7_same_experts_share__el} de les llavors), però DeepSeek-V3 "
            "suma un biaix d'equilibri a les puntuacions només per triar els k experts (paràfrasi del seu informe "
            "tècnic, §2.1.2: el biaix no entra als pesos), i un biaix de més de {w7_margin} al canal "
            "{w7_margin_enters} ja canvia la tria",
            **judge(_same_form, g.lstm_gap == 0.0, g.moe_gap == 0.0, g.swiglu_gap),
        ),
        Claim(
            "W7.2",
            "L'LSTM i el MoE donen zero exacte: els mateixos bits.",
            "exact",
            "{w7_lstm_gap} i {w7_moe_gap}",
            **judge(_same_bits, g.lstm_gap, g.moe_gap),
            robustness="bit a bit en {w7_bitwise_share__el}",
        ),
        Claim(
            "W7.3",
            "SwiGLU se'n separa per 1,11·10⁻¹⁶, l'arrodoniment de fp64.",
            "draw",
            "{w7_swiglu_gap}",
            **judge(_rounding_gap, g.swiglu_gap),
            robustness="2⁻⁵³ en {w7_gap_53_share__el}, 2⁻⁵² en {w7_gap_52_share__el}, menys en "
            "{w7_gap_smaller_share__el}, més en {w7_gap_larger_share__el} (com a molt {w7_gap_max}); a un ulp de "
            "la referència en {w7_ulp1_share__el}, a dos en {w7_ulp2_share__el}",
        ),
        Claim(
            "W7.4",
            "Top-k 2 de 16: el router apaga el 88 % dels canals i la diferència salta a 0,804.",
            "draw",
            "{w7_switched_off_exact} → {w7_switched_off}; diferència {w7_topk_gap}",
            **judge(_router_switches_off, switched_off_text, g.topk_gap),
            robustness="mediana {w7_topk_median}, {w7_topk_min__de} a {w7_topk_max}",
        ),
        Claim(
            "W7.5",
            "SwiGLU lliga l'argument de la sigmoide amb el senyal (la mateixa x); l'LSTM els té independents.",
            "qualitative",
            "Swish(a) {w7_swish_min__de} a {w7_swish_max}; σ(a) {w7_sigmoid_min__de} a {w7_sigmoid_max}",
            **judge(_swish_leaves_the_unit_interval, rob.swish_range, rob.sigmoid_range),
        ),
    )


def corrections() -> tuple[Correction, ...]:
    """The book's corrections of the author's words, each with its measured reason."""
    return (
        Correction(
            "W7.4",
            "la diferència salta a 0,804",
            "la diferència salta a {w7_topk_gap}",
            "Depèn dels valors a i b que surtin: amb la llavor de la pàgina és {w7_topk_gap}; en "
            "{w7_n_seeds} llavors, {w7_topk_min__de} a {w7_topk_max} (mediana {w7_topk_median}).",
            change="redraw",
        ),
        Correction(
            "W7.5",
            "—les dues surten de la mateixa $x$— mentre que l'LSTM les té independents.",
            "—$\\mathrm{{Swish}}(a) = a\\,\\sigma(a)$, una porta que ja no queda entre 0 i 1—, "
            "mentre que a l'LSTM la sigmoide només modula un senyal que ve per una altra branca.",
            "A l'LSTM, $i_t$ i $g_t$ també surten de la mateixa entrada "
            "$[\\mathbf{{x}}_t, \\mathbf{{h}}_{{t-1}}]$ amb pesos "
            "diferents, com a i b a SwiGLU: no és això el que les distingeix. El que canvia és la "
            "porta: Swish(a) va {w7_swish_min__de} a {w7_swish_max}, σ(a) {w7_sigmoid_min__de} a "
            "{w7_sigmoid_max}.",
        ),
    )
