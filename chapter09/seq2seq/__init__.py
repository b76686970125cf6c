"""Seq2seq from scratch: the bottleneck, the reversed source, and Bahdanau's attention.

The task is to copy a random string of ``L`` symbols over ``V = 8``.  An encoder reads
it, a decoder writes it back, and three arms get the same training (Adam steps of 32 new
strings each, state 16): a shared small budget of 400 steps, and a long one that goes on
until the model stops improving, at most 5000 steps.  In the *bottleneck* arm the decoder starts from the encoder's last
state only (Sutskever et al. 2014).  The *reversed* arm is the same model reading the
string backwards, as Sutskever did.  The *attention* arm is the same decoder with
Bahdanau et al. (2015)'s additive attention over every encoder state.

The cell is the chapter's LSTM (widget 2's equations), with row vectors, ``a = x W + h U + b``::

    [a_i a_f a_o a_g] = x_t W + h_{t-1} U + b  (+ ctx_t C)    i, f, o = σ(a_i, a_f, a_o),  g = tanh(a_g)
    c_t = f ⊙ c_{t-1} + i ⊙ g                                  h_t = o ⊙ tanh(c_t)                       (1)

The encoder runs it from ``h_0 = c_0 = 0`` on ``x_j = E_src[source_j]``.  The decoder
starts from the encoder's last ``(h_L, c_L)`` and reads ``E_tgt[y_{t-1}]``, with
``y_0 = GO``: the target itself during training (teacher forcing), its own argmax at
test time (greedy).  Its outputs are ``logits_t = s_t W_out + b_out (+ ctx_t C_out)``, and
the loss is the cross-entropy averaged over strings and positions.  The attention
arm's context, which goes to both the cell and the output, is ::

    e_tj = v_a · tanh(s_{t-1} W_a + h_j U_a),    α_tj = softmax_j(e_tj),    ctx_t = Σ_j α_tj h_j    (3)

The whole network, forward and back for one string, is :mod:`chapter09.seq2seq.net` (compiled;
its docstring has the backward pass).  Adam (lr 0.01) follows each step.  Before it, the model's
whole gradient is rescaled to norm 1 when it is longer: gradient-norm clipping, Pascanu, Mikolov &
Bengio (2013)'s remedy for exploding gradients.  Several models train side by side, each on its own
seed's strings; nothing mixes them, so each learns bit for bit what it learns alone (tested).

**Held-out measures.**  At the end of a training, after STEPS steps if it is longer, and, in a long
training, at every step of :data:`CHECKPOINTS`, the model copies the 256 test strings twice: greedily,
each output read back as the next input (the *accuracy*), and with teacher forcing, the right previous
symbol as input whatever it wrote (the *teacher-forced accuracy*, and the held-out loss).  Where the two
differ, errors feed on earlier errors.  The test strings are reported, never used to decide anything.

**Until it stops improving.**  A long training also copies its validation strings
(:data:`chapter09.seq2seq.task.N_VALID`, never trained on, never reported), greedily, at each checkpoint
from STEPS on.  With ``v(n)`` their accuracy at checkpoint ``n`` and ``best(n)`` the largest ``v`` at the
checkpoints up to ``n``, the model stops at a checkpoint ``n ≥ 2·STEPS`` when ::

    best(n) − best(n/2) < GAIN                                                                     (4)

a doubling of its training that no longer paid, judged on the best so far: between checkpoints a
model's accuracy moves by a point or two on its own (Adam's steps, not the strings: it does so on 8.192
strings as on 256), and a rule read at the last checkpoint alone would stop at a dip.  (4) can fire at
every checkpoint from 2·STEPS on (``best(n/2)`` needs no checkpoint at ``n/2``).  Otherwise it stops at
:data:`CAP`.  Either way it keeps the weights of its best checkpoint on the validation strings (early
stopping that returns the best model, Prechelt 1998), and the page reports those weights' test accuracy.
With ``N`` validation strings and ``s`` the spread (standard deviation) of one string's share of right
symbols, ``v`` has a sampling error ``s/√N``: under half a point (GAIN) for ``s ≤ 0,25`` at ``N = 4.096``.

Every number of a training is the same on every machine: :mod:`chapter09.seq2seq.net` is compiled
loops whose sums run in the order they are written, with σ, tanh, exp and ln from
:mod:`chapter09.portable`.

Why an LSTM?  The chapter's other cell is the tanh RNN.  When the cell was chosen (one
seed, L = 16, 600 steps, before the models were stacked) the tanh RNN took 1,0 s
(bottleneck) and 2,4 s (attention) of CPU and reached 0,13, 0,33 and 0,85 (bottleneck,
reversed, attention); the LSTM took 1,9 s and 3,3 s and reached 0,22, 0,35 and 0,97.
Half as much again for a cell that learns the task: the page's whole sweep fits its
budget either way (``make bench`` measures it).

**The package, module by module.**  :mod:`~chapter09.seq2seq.task` draws the strings,
:mod:`~chapter09.seq2seq.net` is the network (1)–(3), forward and back, :mod:`~chapter09.seq2seq.training`
trains and measures a model (Adam, clipping, the held-out measures, rule (4)); what the trained models show
(the sweep over lengths, attention weights, path gradients) is :mod:`~chapter09.seq2seq.sweep`, and what
their curves say :mod:`~chapter09.seq2seq.curves`.  This package exports the training's public names.

>>> r = train("attention", 4, steps=200)
>>> bool(r.accuracy > 0.9), bool(r.loss[-1] < r.loss[0] / 10), r.position_accuracy.shape
(True, True, (4,))
>>> r.checkpoints.tolist(), bool(r.curve[-1] == r.accuracy)
([200], True)
"""

from __future__ import annotations

from .training import ARMS, CAP, CHECKPOINTS, LENGTHS, SEEDS, STEPS, Trained, train

__all__ = ["ARMS", "CAP", "CHECKPOINTS", "LENGTHS", "SEEDS", "STEPS", "Trained", "train"]
