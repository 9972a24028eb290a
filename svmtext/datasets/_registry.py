"""Registry of the data files: where each one comes from and how it is verified.

Paths are relative to :func:`svmtext.datasets.data_home` (layout ``<dataset>/<file>``).
Every source is pinned: a file in a GitHub repository at a fixed commit
(``https://raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>``), so the bytes
behind a URL can never change.

Two kinds of file:

:data:`REGISTRY`
    Downloaded files.  A download is kept only when its sha256 equals the value
    here (after dropping ``skip_lines`` leading lines that the public copy adds).
:data:`ASSEMBLED`
    The Rätsch/IDA ``raetsch/<name>.npz`` files, assembled locally from the original
    ``.asc`` split files and the ``.mat`` pattern pools
    (:mod:`svmtext.datasets._ida`).  They are verified array by array against the
    digests here (:func:`svmtext.datasets._ida.array_digest`), which were computed from
    the book's canonical copies, so an assembled file equals them bit for bit.
"""
from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    """One downloaded file: expected sha256, pinned URL, leading lines to drop first."""

    sha256: str
    url: str
    skip_lines: int = 0


class Assembled(NamedTuple):
    """One assembled ``.npz``: digest of each array, and where its sources live.

    ``asc`` is ``(base URL, path prefix)`` of the split files
    ``<base><prefix>_{train,test}_{data,labels}_{1..10}.asc`` (``None`` for a set
    without splits); ``pool`` is the registered ``.mat`` pattern pool, or ``None`` when
    the pool is realisation 1 (its training rows, then its test rows).
    """

    digests: dict
    asc: tuple[str, str] | None
    pool: str | None


def _github(owner_repo: str, commit: str) -> str:
    return f"https://raw.githubusercontent.com/{owner_repo}/{commit}/"


MNIST_BASE = _github("lynnlangit/AdvancedPythonForBio", "5d50664c78bc02228c59e8ccfe7a395d64f14a4e")
IONOSPHERE_BASE = _github("rohitpaul23/density_based_clustering",
                          "9fca3d3f94fd740ed01084ba7e01ee622a53fc3b")
SONAR_BASE = _github("utomoreza/C1_LBB", "d975b20a3a2013e682f46aa182f988323e8db0de")
GERMAN_BASE = _github("KevinChittilapilly/Fairness-Research",
                      "586a031c8777efe33042cb60c3b84595e8964c7d")
GLASS_BASE = _github("acraig07/KNN-algorithm", "f7842782805f3bd70120d11dcccbd80390ca6a19")
VEHICLE_BASE = _github("YichenZhuDuke/Classification-Tree-with-Surface-to-Volume-ratio-Regularization",
                       "412e58ea8b60e4958d4854430218d0d86bbce785")
SEGMENT_BASE = _github("Jaygem/PythonForDataAnalysis", "975879b19e6aeab95c5eba70c97f9526f1ad38b2")
COMPAS_BASE = _github("propublica/compas-analysis", "bafff5da3f2e45eca6c2d5055faad269defd135a")
FAIRML_BASE = _github("adebayoj/fairml", "efda59866db312419dc3dea047c94862cc21d485")
# the LIBSVM guide's data sets (svmguide/SOURCE.md: byte copies of git blobs)
NODE_SVM_BASE = _github("nicolaspanel/node-svm",
                        "38f0718e25ecf449c9e0636de50c0a677ae84266") + "examples/datasets/"
NODE_SVM_OLD_BASE = _github("nicolaspanel/node-svm",
                            "7d24df4e0f805672e421e3dce8d060b8d047e79b") + "examples/datasets/"
WARPED_MIXTURES_BASE = _github("duvenaud/warped-mixtures",
                               "ddcd793562587b8a26fe7f9bdfb59eb9e50ae6d4") + "data/"
COPULA_BASE = _github("andybaoxv/copula", "ebc09c65f3903ebd9480c62b9771598e187212fc") + "data/"
RAETSCH_MAT_BASE = _github("Devn913/AGMR_entropy_sparse",
                           "7d5f7cfd8ca4c0f7130bfda3201084db5c093174") + "twin_datasets/"
IDA_FERNANDO_BASE = _github("fernando2393/Relevance-Vector-Machine",
                            "4692830b9a8cf938e6b319be4a42e2a3ddde5457") + "Classification/datasets/"
IDA_POVELFK_BASE = _github("povelfk/AdvML19-Project-RVM",
                           "fe15c4dc66753005760c5286ec295f1c2afec61c") + "data/"

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

_SVMGUIDE = {
    "svmguide1": ("2b9ab55b6236f62cee6b7739b52f9e7cb033771f39b9c22c1f1790d80ef14d7f",
                  NODE_SVM_BASE + "svmguide1.ds"),
    "svmguide1.t": ("f9c2fd4c725172aeb4476fc1e2327d537f7fbc2f53f49dfd073f80efbe1ba8f7",
                    NODE_SVM_BASE + "svmguide1.t.ds"),
    "svmguide2": ("d55cbb1a4a6fb3aa4d388ab06b01e7cbb8fe4d6436b068be940592bdf85384a7",
                  WARPED_MIXTURES_BASE + "svmguide2.txt~"),
    "svmguide3": ("e46b0f7da5f5f9dfd640a9a738d0006fcd1e0b87eae8e055c124a240f3aa3a4c",
                  COPULA_BASE + "svmguide3"),
    "svmguide3.t": ("c8450c995c3f6f8913d1c4570933e42c1cbf3a3a9c9c5436cda205fb600c09bb",
                    NODE_SVM_OLD_BASE + "svmguide3.t.ds"),
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

#: Digests of the arrays of the canonical ``raetsch/<name>.npz`` copies.
_RAETSCH_DIGESTS = {
    "banana": {
        "X": "ecd0ca6ba604b095b287aaeda144d4d7e2bfdd464cf755569d2675d05eef5b89",
        "y": "fe04cdccd19de0b83a71712e34cb9901193ab4894b1f95ffa1ad4ac457318397",
        "train_idx": "8a50fd3a0b69877e1587efaa83789323ba953e8ac270c780793a6d8ef8ef0003",
        "test_idx": "3f4a88c44f563ac23ac2b15bb9e2cc857322ffcc7797a1d807880dea7806b4ca",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "breast_cancer": {
        "X": "b95253cf918287d92bc0df928edf850e44c390267a3a09244be298aeb69cc125",
        "y": "0c768a8ee8baa67c32348ad9b7eda4dd2c77bda30323072c67e10b850f232f22",
        "train_idx": "c30166271570b0784ab6366d6374a9e04640127dde844db9791299672f0fda94",
        "test_idx": "75b08fed2cb6ba6b51d588a09d72283ff622fe65e5899c2a50f095dce61a124a",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "german": {
        "X": "4dc0bce25cc3b44de0c43682e823c241f18eeae9c1af6b407799696e444f14eb",
        "y": "635160f1e596c8d8073dd2b0460bfc9b92680edff44d1e27fb34cb803afc0cb1",
        "train_idx": "d6cf613ab8c73cd2ba6bf997eecc8749f95f2e3e1dce57fce5255aed16642be9",
        "test_idx": "104dd8ba7c309def4c32b7343d5a9fcad85b5383cca63665ca9e125215ba94ea",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "heart": {
        "X": "7e9b6246c264b4fce9de586655c73aecfa760234cfc6e5088862cf445c33805d",
        "y": "76fbb5d2250fda57b306351d539ffba0a59061ac40322602826ec15955634697",
        "train_idx": "889c4ca13444e11fd1b83106e826154d96265758f74b72239e9f3f6c1b6632c4",
        "test_idx": "d8ba6b7b70022b38401463626be88d4d9e369f2f1adb751f0a2099bf6d627837",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "image": {
        "X": "e8d46cbe375ec0ff06b9d314d2202c61b2061fdd0d5620d78c21d8153cbbb6e3",
        "y": "2f79333f0c2d7762f69128b72c590cd4a6c2b007eb719c57be3db717474efc9a",
        "train_idx": "d2a7a2ad42954b7c9c327d7fff64edb4d526e54e7057222c718937a54454f08a",
        "test_idx": "5c6841c50ee9102728d1ccf6ddfe71679fae9f13157571ecedf52a27bae88daa",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "ringnorm": {
        "X": "7776b6c5596cf175f80678706f8e1e97f47562610c88e24b9ff01afde9a075d0",
        "y": "7cbff4b53ef6aae2492fbfd644803f50bec453175a225c0f28a01c039ed8637e",
        "train_idx": "2ed6af702924f2a516b08094fb7d381f88eeb9db808edfcb1ba93c73a25352a1",
        "test_idx": "ea88a0a20df9dbd1d9ec5f9560bd924c42421a5f759b76cfa4682e152e6b5301",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "titanic": {
        "X": "801c7a8abc200501a140b075b4510f02fe6ac58d3fc8e14e676b0ee40c97ede0",
        "y": "90eb19a6914f8ed0d0eeba556186cf92793e690acced89629bd8a9436190fe2d",
        "train_idx": "118f7756c5f76d06fabd19d88f67d96d73cfd4d192eafc79c1dfcfe8c00953c1",
        "test_idx": "08f2b0454cd59da06f3090b35b988f669a8bfff94e740144eb41694019dbe769",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "waveform": {
        "X": "fa0ecad535b52fd31d41332e58194bdabd06dd9f67fe4529e7999b05f866d8a9",
        "y": "4307ffe54e265a65930f44eaea9e3d0324cf60275484d960c69005a1363692c3",
        "train_idx": "93e31b2aa1b5c60f731540ff7366e8aca9329b82793662a761cd085f673416ac",
        "test_idx": "5403863e926b4655f14948481ae6975ac3b8db097f228ec825f3aa4d94b2c485",
        "realisation": "ebdd102f9ce3bfe05784e68f2c7a73b99ed97615dcf4bdb501912954689629a4",
    },
    "thyroid": {
        "X": "291e80a27089c97b2236b337481e1b157e779d1b3c0a078f17310ccafa74b54e",
        "y": "dbafca3bb94c63a9629510f7f89c1a2e5a5de8f4e190834d41fc307387a397ae",
    },
    "flare_solar": {
        "X": "61ae98a959594a94d270e08256dd2e3416bf878b2d7cc81e09c23c45a24777df",
        "y": "9650a2b60d89640ec51ed617894196c8f3f9bafa506efc2525362f606f334a9c",
    },
    "splice": {
        "X": "e2d64e88cd88324cbdb381ba4a873f35f56e879d53b2b5d91353147501739bd2",
        "y": "6da0aeaa54fcc7c2faf563a583a997e3f6f9c92d7f31401f4e2d158006e55bd7",
    },
}

#: Where the split files of each set live: (base URL, folder/file prefix).
_RAETSCH_ASC = {
    "banana": (IDA_FERNANDO_BASE, "banana/banana"),
    "breast_cancer": (IDA_FERNANDO_BASE, "breast-cancer/breast-cancer"),
    "german": (IDA_FERNANDO_BASE, "german/german"),
    "image": (IDA_FERNANDO_BASE, "image/image"),
    "titanic": (IDA_FERNANDO_BASE, "titanic/titanic"),
    "waveform": (IDA_FERNANDO_BASE, "waveform/waveform"),
    "heart": (IDA_POVELFK_BASE, "heart/heart"),
    "ringnorm": (IDA_POVELFK_BASE, "ringnorm/ringnorm"),
}


def _build() -> dict[str, Entry]:
    reg: dict[str, Entry] = {}
    for name, sha in _MNIST.items():
        reg[f"mnist/{name}"] = Entry(sha, MNIST_BASE + name)
    reg["ionosphere/ionosphere.data"] = Entry(
        "46d52186b84e20be52918adb93e8fb9926b34795ff7504c24350ae0616a04bbd",
        IONOSPHERE_BASE + "ionosphere.data")
    reg["sonar/sonar.all-data"] = Entry(
        "e90434cdbf00fcf93ffa911fe447ae25606979658e60f1d32e155c3b5240234d",
        SONAR_BASE + "sonar.all-data")
    reg["german_numeric/german.data-numeric"] = Entry(
        "2752b044394958ab6dd193a0b56ca0f0b3a2d8bc7cb8c008e35a5e84bbec02f8",
        GERMAN_BASE + "german.data-numeric.txt")
    reg["glass/glass.data"] = Entry(
        "dd67373f4baf2807345df02cbfef2093d342e61ad0d82a4fb79af43ef8ce449d",
        GLASS_BASE + "glass.data")
    for name, sha in _VEHICLE.items():
        reg[f"vehicle/{name}"] = Entry(sha, VEHICLE_BASE + name)
    # The public copy starts with a line of attribute names; the data file is the rest.
    reg["segment/segment.dat"] = Entry(
        "d8985260e6e47056da89a4e4124c82ee88fd6072e0db139484c50ff4b390cd82",
        SEGMENT_BASE + "segment.dat", skip_lines=1)
    reg["compas/compas-scores-two-years.csv"] = Entry(
        "c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d",
        COMPAS_BASE + "compas-scores-two-years.csv")
    reg["compas/propublica_data_for_fairml.csv"] = Entry(
        "efc28b32b72462af9a07236bfe04b2a9ac07971fad35f87704b2b92bbfe6cf06",
        FAIRML_BASE + "doc/example_notebooks/propublica_data_for_fairml.csv")
    for name, (sha, url) in _SVMGUIDE.items():
        reg[f"svmguide/{name}"] = Entry(sha, url)
    for name, sha in _RAETSCH_MAT.items():
        reg[f"raetsch/original_mat/{name}.mat"] = Entry(sha, RAETSCH_MAT_BASE + name + ".mat")
    return reg


#: Every downloaded file, keyed by its path relative to the data home.
REGISTRY: dict[str, Entry] = _build()

#: Every assembled file, keyed by its path relative to the data home.
ASSEMBLED: dict[str, Assembled] = {
    f"raetsch/{name}.npz": Assembled(
        digests, _RAETSCH_ASC.get(name),
        f"raetsch/original_mat/{name}.mat" if name in _RAETSCH_MAT else None)
    for name, digests in _RAETSCH_DIGESTS.items()
}


def _datasets() -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {}
    for relpath in REGISTRY:
        folder = relpath.split("/", 1)[0]
        if folder != "raetsch":
            sets.setdefault(folder, []).append(relpath)
    for relpath in ASSEMBLED:
        sets[relpath[:-len(".npz")]] = [relpath]
    return sets


#: Data set name -> the files its loader reads (``raetsch/<name>`` for the Rätsch/IDA sets).
DATASETS: dict[str, list[str]] = _datasets()
