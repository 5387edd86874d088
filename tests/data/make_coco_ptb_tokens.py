"""Record the tokens coco-caption's ``PTBTokenizer`` gives for hand-made texts, for
tests/test_coco_ptb.py (which compares ``bleuprint.compat.coco.PTBStyle`` with them on
machines without Java).

The tokenizer is Stanford CoreNLP 3.4.1's PTBTokenizer, the jar pycocoevalcap 1.2 bundles, run
as pycocoevalcap runs it (``-preserveLines -lowerCase``, then its punctuation filter): this
script calls ``pycocoevalcap.tokenizer.ptbtokenizer.PTBTokenizer`` itself. Each case is one
caption, all tokenized in one run, in order, with a last caption ``end`` after them: CoreNLP
looks past a line's end (a one-letter abbreviation at the end of a line keeps its period or not
depending on the next line's first word), so no case ends with one. Rerun, with Java and the
``test`` extra installed, as ``python tests/data/make_coco_ptb_tokens.py``; it rewrites
``coco_ptb_tokens.json`` next to it.
"""

# The cases are about look-alike quotation marks, apostrophes and dashes:
# ruff: noqa: RUF001

from __future__ import annotations

import json
from pathlib import Path

from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

HERE = Path(__file__).resolve().parent

# (the rule a case shows, its text)
CASES = [
    ("contractions", "I don't, can't, won't; it's John's, they'll, I'd, you've, I'm here."),
    (
        "split words",
        "I cannot believe we're gonna win, wanna bet? Lemme see, gimme that, gotta go.",
    ),
    (
        "curly contractions",
        "Curly: don’t, it’s, didn‘t, the do's and don'ts, y'all and y’all, Do’s & Don’ts.",
    ),
    (
        "apostrophes in words",
        "O'Neil, d'Arc, l'homme, O‘Mahony, ma'am, Shi'ite, jing'an, a'target, 1'Co ok",
    ),
    (
        "contractions in words with periods",
        "next?Don't, x.Didn‘t, e.g.don't, x.cannot, x.gonna, but x. don't ok",
    ),
    ("apostrophes before other scripts", "Tien'sなど and Squire'sによると ok"),
    ("question and exclamation marks", "Wow!! Really?! What?? No!!! Or not?I like it."),
    ("asterisks", "Rate it ** or ***, not *, nor \\*\\* or \\*r ok"),
    ("periods", "Wait.. what, and so on..... or … fine"),
    ("dashes", "Hyphens -- and --- and ---- and ------ and – and — and ― here"),
    ("hyphens", "Ein-/Aus-Taste, Finanz- und -Politik, 3‐5 days and well-known."),
    ("semicolons and colons", "Semicolons; colons: foo.; bar.: baz., who"),
    ("numbers before units", "It weighs 39.5mm, 1,052ha, 30mm x15.5mm, -2mm, +120ml and 3-4mm."),
    ("times", "At 3:49am and 7:45 pm, 16:10-16:30, the 13:7-Führung and a 1:1 ratio."),
    ("signed numbers", "Scores +3 and 2+3 and -3, 0,3-0,5 mm, 17.Jahrhundert and Nr.10 ok"),
    ("numbers in words", "クリスタルマウンテンは2,600エーカー、ダラスの105.3FM、具体的には2.10"),
    ("numbers after colons", "リビア:１２月 and note:12 and x,12 ok"),
    ("fractions", "Reference 3643 10/12/21 and 364310/12/21 and 1/2 ok"),
    ("currency", "It costs US$20, AU$ 500, €5, ¥300 and £7."),
    ("quotes", "\"Quoted\" and 'single' and “curly” and ‘single curly’ and «guillemets» ‹x›"),
    ("grave accents", "Type `show w' and ``filled(a)'' and ```x, in Italian di + l' ok"),
    ("pairs of quotes", "She said: “‘Work is communism.’” ok"),
    ("closing quotes", "St Thomas'. And continue.' Then eBay'-Nachricht"),
    ("quoted years", "In '38 it was and the '90s too, not '49. Then"),
    ("brackets", "(brackets) [square] {curly} <<x>> and a < b > c"),
    ("ampersands and plus signs", "R&D at AT&T & friends, place&lending, A+GBT and a+b ok"),
    ("capitals and ampersands", "R&D-oriented, Q&As, AT&T.com, R&D/x, aR&D, x-R&D and R&D’s ok"),
    ("hash signs", "Call #PRS_ORG# or org#帐户, ###MBundestag, #1 and #a1 ok"),
    ("underscores", "x_t2, a__b, _x, x_ and ___ and a-b_c ok"),
    ("slashes", "s/pdif and/or a1/b2 ab/cd/ef/gh ab-cd/ef study/ which /tires ok"),
    ("slashes and other scripts", "käse/fleisch/gemüse, r/militär, 修复/恢复 and ä/b ok"),
    (
        "web addresses",
        "See http://www.x.com/a?b=c. and www.bosch-pt.com/warranty, norton.com/pricing",
    ),
    (
        "web addresses and other scripts",
        "订阅续订按norton.com/pricing上的续订价格收费。my.norton.comで",
    ),
    (
        "web addresses with punctuation",
        "每年自动续订，除非在您在my.norton.com应付费 and Ab、my.com and ab，my.comx, x+y.Com/xyz",
    ),
    (
        "web addresses in words",
        "Pic.twitter.com/UxID9, Norton.com/Pricing, foo.Com/x and foo.Com/xy ok",
    ),
    ("e-mail addresses and Twitter names", "Mail x@y.com, or weibo@south and @foo_1 and me@@ ok"),
    ("SGML", "φ <unk> λh and <b> tags"),
    (
        "HTML entities",
        "AT&amp;T said &quot;yes&quot; &lt;b&gt; &apos;s R&amp;D &#39; &eacute; &mdash; ok",
    ),
    ("emoticons", "Great :D and :-) and ;-) and :') and :P and =) ok"),
    ("not emoticons", "But :Dog and x:(y and =[1] and :/ ok"),
    ("abbreviations", "Mich. and Calif. on Dec. 5, Inc. said Ms. Smith, Prof. Jones, Mt. Rainier"),
    ("abbreviations that are words", "Miss. Smith, but miss. it; Mass. and mass. here"),
    ("abbreviations before numbers", "No. 5 and No.5 and No. S53, ca. 30, fig. 3, pp. 5 but pp. x"),
    ("one-letter abbreviations", "John F. Kennedy, Mikhail S. Gorbachev, station B. If so, I. see"),
    (
        "one-letter abbreviations before sentence starts",
        "Route P. It's open, Plan B. According to x, Plan C. Mr. Smith, plan D. The, ok",
    ),
    (
        "acronyms in hyphenated words",
        "China-U.S. talks, the x-a.b. deal, Report:U.S. aid, x,P. y and x-Inc. ok",
    ),
    ("acronyms", "In the U.S. Navy, e.g. this, i.e. that, etc.. and I... forget it"),
    ("final periods", "Foo. bar, foo., who, the .exe file, formula1.com and 3.5. More"),
    (
        "periods in hyphenated words",
        "At a-b.com, on John-F.-Kennedy-Straße, a 3-mm-i.d.-Schlauch ok",
    ),
    ("deleted characters", "Soft\u00adhyphen and 《book》 and emoji 😅 here"),
    ("guillemets and bars", "The »Smart Stone« lamp ― new"),
    ("numbered steps", "1.- Gehen and 2.-画面 ok"),
    (
        "words that start with digits",
        "3mmのI.Dホース, 3D.com, 1st.Jahr, 17.txt, 3a.b.c, 3ab.cd.ef, 3.5.txt, 2.Bundesliga-Saison",
    ),
    (
        "file names and decimals",
        "Python (3.x), 3.x and 3a.txt, (3a.txt), LIUM-NMT.4900.en-de and x_3a.D ok",
    ),
]


def main() -> None:
    texts = [text for _, text in CASES] + ["end"]
    captions = {number: [{"caption": text}] for number, text in enumerate(texts)}
    tokens = PTBTokenizer().tokenize(captions)
    recorded = {
        "tokenizer": "pycocoevalcap 1.2 PTBTokenizer (Stanford CoreNLP 3.4.1)",
        "cases": [
            {"rule": rule, "text": text, "tokens": tokens[number][0].split()}
            for number, (rule, text) in enumerate(CASES)
        ],
    }
    path = HERE / "coco_ptb_tokens.json"
    path.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
