"""The most downloaded packages of PyPI and npm, offline: a requirement one edit away from one of
these, and not itself one of them, is a lookalike (`reqeusts`, `python-dateutils`). A short
list on purpose: the names a typosquatter copies are the ones everybody installs."""

_PYPI_NAMES = """
boto3 botocore urllib3 requests setuptools certifi charset-normalizer idna typing-extensions
python-dateutil packaging s3transfer six aiobotocore pyyaml numpy grpcio-status s3fs fsspec pip
cryptography pydantic cffi attrs google-api-core pycparser pandas importlib-metadata jmespath
protobuf wheel rsa pyasn1 click zipp platformdirs pydantic-core jinja2 markupsafe colorama filelock
pytz tomli virtualenv pluggy awscli pyjwt wrapt cachetools pytest googleapis-common-protos
pyasn1-modules jsonschema sqlalchemy tzdata docutils psutil aiohttp pyarrow requests-oauthlib
oauthlib multidict yarl frozenlist aiosignal tqdm pyparsing scipy httpx httpcore anyio sniffio h11
openpyxl pillow beautifulsoup4 soupsieve lxml greenlet decorator regex grpcio iniconfig
exceptiongroup distlib tomlkit isodate more-itertools werkzeug flask itsdangerous websocket-client
pygments rich markdown-it-py mdurl openai anthropic tiktoken langchain langchain-core matplotlib
kiwisolver fonttools cycler contourpy scikit-learn joblib threadpoolctl torch transformers
tokenizers huggingface-hub safetensors sympy networkx mpmath fastapi starlette uvicorn gunicorn
django redis celery kombu psycopg2 psycopg2-binary pymysql selenium playwright black ruff mypy isort
flake8 pylint coverage tox nox poetry hatchling build twine keyring paramiko bcrypt pynacl
python-dotenv dotenv toml ujson orjson simplejson xmltodict markdown mistune nltk spacy
opencv-python pyinstaller docker kubernetes azure-core google-auth google-cloud-storage pymongo
elasticsearch sentry-sdk loguru structlog typer argcomplete tabulate termcolor
"""
PYPI = frozenset(_PYPI_NAMES.split())

_NPM_NAMES = """
lodash react react-dom chalk commander express axios debug tslib semver uuid typescript moment
request async fs-extra glob minimist yargs dotenv webpack babel-core eslint prettier jest mocha vue
next classnames prop-types rxjs body-parser cors jsonwebtoken mongoose node-fetch ws socket.io
bluebird underscore colors inquirer ora zod yaml js-yaml cross-env rimraf mkdirp nodemon ts-node
esbuild vite rollup puppeteer playwright cheerio dayjs
"""
NPM = frozenset(_NPM_NAMES.split())



def distance_one(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def lookalike(name: str, popular: frozenset[str]) -> str | None:
    """The popular name `name` imitates, or None. Names of four letters or fewer are left alone:
    one edit away from each other, many are real packages of their own."""
    canonical = name.lower().replace("_", "-").replace(".", "-")
    if canonical in popular or len(canonical) <= 4:
        return None
    for known in popular:
        if distance_one(canonical, known):
            return known
    return None
