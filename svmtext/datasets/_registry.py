"""Registry of the data files: relative path -> (sha256, canonical download URL).

Paths are relative to :func:`svmtext.datasets.data_home` and follow the layout of the
book's data folder (``<dataset>/<file>``).  The sha256 values are those of the
canonical copies listed in each dataset folder's ``SOURCE.md``; a downloaded file is
accepted only when its sha256 equals the value here.

``url`` is ``None`` where no verifiable public copy of that exact file exists (the
assembled Rätsch/IDA ``.npz`` files; see :mod:`svmtext.datasets._raetsch`).
"""
from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    """One registered file: expected sha256 and canonical URL (``None``: no public copy)."""

    sha256: str
    url: str | None


MNIST_BASE = "https://ossci-datasets.s3.amazonaws.com/mnist/"
UCI_BASE = "https://archive.ics.uci.edu/ml/machine-learning-databases/"
COMPAS_URL = ("https://raw.githubusercontent.com/propublica/compas-analysis/"
              "bafff5da3f2e45eca6c2d5055faad269defd135a/compas-scores-two-years.csv")
RAETSCH_MAT_BASE = ("https://raw.githubusercontent.com/Devn913/AGMR_entropy_sparse/"
                    "7d5f7cfd8ca4c0f7130bfda3201084db5c093174/twin_datasets/")

_MNIST = {
    "train-images-idx3-ubyte.gz": "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
    "train-labels-idx1-ubyte.gz": "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
    "t10k-images-idx3-ubyte.gz": "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
    "t10k-labels-idx1-ubyte.gz": "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
}

_VEHICLE = {
    "xaa.dat": "7fd869de06e71e027cfd8d2a4720d0e3cbead77fef5a8a1d81fa628bb61d6d2d",
    "xab.dat": "eb9b39becd4d0c4e77e2a5d47732d83960b6418243eac39da261a290178ee0f7",
    "xac.dat": "4975a47f907d7dab052518f5aceefab03c9eb50d52b108e7641bc7bf2982ed06",
    "xad.dat": "4d026d84e318e4a7d60d207c84475d3caa869f499276bd58cdee386ca628c678",
    "xae.dat": "b65fc1395cb068b9f579796969dc80944124c42b5d7cbd92a19b34bfd6173309",
    "xaf.dat": "297d6811d98c355819addd03678b8a8ac4f8355ca7c556bae2f1f2427afad97c",
    "xag.dat": "e343075bc28293062f1ca82d955c1406235e3d63c419c5ef67ebb9e8516e1eec",
    "xah.dat": "4befe2b54c121bc94fbc4599196180b33e646c7a52a345d1f91d90666e260480",
    "xai.dat": "74781b1c689c3e4899f6021f55a054bf020cf38f74d699faeb6ad72c724af92e",
}

_RAETSCH_NPZ = {
    "banana": "114439708ddd67c8f1c82aa613e5fb24bd8592f37752b47a23d70a751a00c53f",
    "breast_cancer": "510a327b822de10b41a28c6ad5511f0b180c303af846dd2700576b76ec262d64",
    "flare_solar": "6a87614262b1dedfe466520825a4929581d8c0904b26b5989896f4fadb675ca8",
    "german": "e351f50daa6894c762c1e44cceb32ef29f502afd86f5cc2ca1ae4bcd5a518d71",
    "heart": "7f64fab061f4e08807dbbb424ef0fe39d8f057548401bc09496cb3af927eb530",
    "image": "e91f68f43661dae698630b4133f296908aceb7caffc9368786d9c64129230822",
    "ringnorm": "5eaf45c92091d6ea65dee4789b8c26543ddc85ae48284a4186829c45ebe3daa0",
    "splice": "9dfa3d8cc84c5e2519208991e1963e94e07508bda11c6f30e9f81f32bb1922c2",
    "thyroid": "96685154a826b353c1b828afff53815dca7481d53001c415b42570732e071d8d",
    "titanic": "65250018128ff971d31946c4e5edd15772f40c893820796433987f09e2b23417",
    "waveform": "f2ed46ac09a08c9c04507160a6314b0b9368b0e97f2ca6950e2d34b13b598958",
}

_RAETSCH_MAT = {
    "banana": "05c98ccd67268c5940cb69c047a8a60840bf8fa624af142dda0c1d659bad9e2f",
    "breast_cancer": "a877c59fdbfe0547f93444332ab665b63027d87be35c6a0c2ae58999407ba599",
    "flare_solar": "3aff418ff82953890854803613eb9e04fd3730114bff8e1a8e98ff59e7bc430c",
    "german": "fbf291548057785f1129ff9197281725a19b971c667c07eb936d35d303208d9b",
    "image": "ef11ddca2fb6992a494f1546dd29a446654264a564d1bba24b6140f374f56225",
    "splice": "3ab9843787885143d61b6141c42d40e4b94b662637c2b6e14522bdb5dce2f8d1",
    "thyroid": "25717045132047fc9b6ad0c2d1f9344cdcd0bf990bc496a8de1827ff430b2e8b",
    "titanic": "95dcb931392de0bd9e20c1659392771ef9df905f9b9c46d367276a1e398eeb22",
    "waveform": "f783135eb00109cb241f65481be36c011cc1fc13df6180d512d2a2a3488e9db3",
}


def _build() -> dict[str, Entry]:
    reg: dict[str, Entry] = {}
    for name, sha in _MNIST.items():
        reg[f"mnist/{name}"] = Entry(sha, MNIST_BASE + name)
    reg["ionosphere/ionosphere.data"] = Entry(
        "46d52186b84e20be52918adb93e8fb9926b34795ff7504c24350ae0616a04bbd",
        UCI_BASE + "ionosphere/ionosphere.data")
    reg["sonar/sonar.all-data"] = Entry(
        "e90434cdbf00fcf93ffa911fe447ae25606979658e60f1d32e155c3b5240234d",
        UCI_BASE + "undocumented/connectionist-bench/sonar/sonar.all-data")
    reg["german_numeric/german.data-numeric"] = Entry(
        "2752b044394958ab6dd193a0b56ca0f0b3a2d8bc7cb8c008e35a5e84bbec02f8",
        UCI_BASE + "statlog/german/german.data-numeric")
    reg["glass/glass.data"] = Entry(
        "dd67373f4baf2807345df02cbfef2093d342e61ad0d82a4fb79af43ef8ce449d",
        UCI_BASE + "glass/glass.data")
    for name, sha in _VEHICLE.items():
        reg[f"vehicle/{name}"] = Entry(sha, UCI_BASE + "statlog/vehicle/" + name)
    reg["segment/segment.dat"] = Entry(
        "d8985260e6e47056da89a4e4124c82ee88fd6072e0db139484c50ff4b390cd82",
        UCI_BASE + "statlog/segment/segment.dat")
    reg["compas/compas-scores-two-years.csv"] = Entry(
        "c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d", COMPAS_URL)
    for name, sha in _RAETSCH_NPZ.items():
        reg[f"raetsch/{name}.npz"] = Entry(sha, None)
    for name, sha in _RAETSCH_MAT.items():
        reg[f"raetsch/original_mat/{name}.mat"] = Entry(sha, RAETSCH_MAT_BASE + name + ".mat")
    return reg


#: Every known file, keyed by its path relative to the data home.
REGISTRY: dict[str, Entry] = _build()
