#!/usr/bin/env python3
"""docs/multi-host.md for tests/multihost.sh.

extract DOC DIR      the fenced blocks: '# settings' -> settings.sh, '# recipe: NAME' ->
                     NAME.sh, '# file: NAME' -> NAME (as written, the tag line kept)
k8s YAML ARGS SET    the Indexed Job, field by field; its containers' command lines are the ssh
                     recipe's (ARGS: run's words, '--', prepare's words, under the doc's
                     settings SET)
check N ROWS COM OUT JSON...   N clients' results: each complete, naming itself, no error, no
                     ignored error; rows == sum of their inserts == Com_insert delta; the merged
                     text block (OUT) holds the sums
"""
import json
import re
import sys


def extract(doc, out):
    import os
    os.makedirs(out, exist_ok=True)
    text = open(doc, encoding='utf-8').read()
    n = 0
    for m in re.finditer(r'^```(\w+)\n(.*?)^```$', text, re.S | re.M):
        body = m.group(2)
        first = body.split('\n', 1)[0]
        name = None
        if first == '# settings':
            name = 'settings.sh'
        elif first.startswith('# recipe: '):
            name = first[len('# recipe: '):].strip() + '.sh'
        elif first.startswith('# file: '):
            name = first[len('# file: '):].strip()
        if name:
            with open(os.path.join(out, name), 'w', encoding='utf-8') as f:
                f.write(body)
            n += 1
    need = {'settings.sh', 'parallel.sh', 'ansible.sh', 'cleanup.sh', 'bench.yml',
            'bench-job.yaml'}
    have = set(os.listdir(out))
    if not need <= have:
        print('multihost: the doc lacks', sorted(need - have))
        return 1
    return 0


def k8s(path, args_file, settings):
    import yaml
    bad = []

    def want(cond, what):
        if not cond:
            bad.append(what)

    doc = yaml.safe_load(open(path, encoding='utf-8'))
    sets = open(settings, encoding='utf-8').read()
    n = len(re.search(r'^HOSTS="([^"]*)"', sets, re.M).group(1).split())
    want(doc.get('apiVersion') == 'batch/v1', 'apiVersion is batch/v1')
    want(doc.get('kind') == 'Job', 'kind is Job')
    want(bool(doc.get('metadata', {}).get('name')), 'metadata.name')
    spec = doc.get('spec', {})
    want(spec.get('completionMode') == 'Indexed', 'spec.completionMode is Indexed')
    want(spec.get('completions') == n, 'spec.completions is the number of hosts (%d)' % n)
    want(spec.get('parallelism') == n, 'spec.parallelism is the number of hosts (%d): all at once' % n)
    want(spec.get('backoffLimit') == 0, 'spec.backoffLimit is 0 (a client that dies is not rerun)')
    pod = spec.get('template', {}).get('spec', {})
    want(pod.get('restartPolicy') == 'Never', 'template.spec.restartPolicy is Never')
    cs, ics = pod.get('containers') or [], pod.get('initContainers') or []
    want(len(cs) == 1 and len(ics) == 1, 'one container and one init container')
    if bad:
        print('\n'.join('multihost: k8s: ' + b for b in bad))
        return 1
    c, ic = cs[0], ics[0]
    env = {e['name']: e.get('value') for e in c.get('env', [])}
    want('START_AT' in env, 'the container has START_AT in its env')
    for x in (c, ic):
        want(x.get('command') == ['/bench'], x['name'] + ': command is ["/bench"]')
        want('--client-index=$(JOB_COMPLETION_INDEX)' in x.get('args', []),
             x['name'] + ': --client-index=$(JOB_COMPLETION_INDEX)')
        want('--client-count=%d' % n in x.get('args', []), x['name'] + ': --client-count=%d' % n)
    want(c.get('args', [])[-1:] == ['run'], 'the container runs "run"')
    want('--format=json' in c.get('args', []), 'the container writes JSON (stdout)')
    want('--start-at=$(START_AT)' in c.get('args', []), 'the container starts at $(START_AT)')
    want(ic.get('args', [])[-1:] == ['prepare'], 'the init container runs "prepare"')
    # the command lines: the ssh recipe's, with index 0 and the same start
    words = open(args_file, encoding='utf-8').read().split('\n')
    words = [w for w in words if w]
    cut = words.index('--')
    ssh_run, ssh_prep = words[:cut], words[cut + 1:]

    def k(args, start):
        return [a.replace('$(JOB_COMPLETION_INDEX)', '0').replace('$(START_AT)', start)
                for a in args]

    start = next((w.split('=', 1)[1] for w in ssh_run if w.startswith('--start-at=')), '')
    want(k(c['args'], start)[0] == ssh_run[0], 'the same workload as the ssh recipe')
    want(sorted(k(c['args'], start)) == sorted(ssh_run),
         'run: the manifest %s vs the ssh recipe %s' % (sorted(k(c['args'], start)), sorted(ssh_run)))
    want(sorted(k(ic['args'], start)) == sorted(ssh_prep),
         'prepare: the manifest %s vs the ssh recipe %s' % (sorted(k(ic['args'], start)), sorted(ssh_prep)))
    if bad:
        print('\n'.join('multihost: k8s: ' + b for b in bad))
        return 1
    print('multihost: k8s: the Indexed Job holds (%d clients; its command line is the ssh recipe\'s)' % n)
    return 0


def check(n, rows, com, out, files):
    bad = []
    n = int(n)
    if len(files) != n:
        print('multihost: %d client results, not %d: %s' % (len(files), n, files))
        return 1
    ev = wr = 0
    seen = set()
    for f in files:
        try:
            d = json.load(open(f, encoding='utf-8'))
        except (OSError, ValueError) as e:
            bad.append('%s: not a JSON result (%s)' % (f, e))
            continue
        fa, r = d.get('facts', {}), d.get('results') or {}
        i = fa.get('client_index')
        seen.add(i)
        if fa.get('client_count') != n:
            bad.append('%s: client_count %s, not %d' % (f, fa.get('client_count'), n))
        if not re.search(r'client%s\.json$' % i, f):
            bad.append('%s: says client_index %s' % (f, i))
        if d.get('error') is not None or not d.get('complete'):
            bad.append('%s: did not complete: %s' % (f, d.get('error')))
        if r.get('ignored_errors', 0) != 0:
            bad.append('%s: %s ignored errors (duplicate keys?)' % (f, r.get('ignored_errors')))
        if r.get('events', 0) <= 0:
            bad.append('%s: no events' % f)
        ev += r.get('events', 0)
        wr += r.get('queries_write', 0)
    if seen != set(range(n)):
        bad.append('client indexes %s, not 0..%d' % (sorted(seen, key=str), n - 1))
    if not rows.isdigit() or int(rows) != wr or int(com) != wr or ev != wr:
        bad.append('rows in the tables %s, the clients\' inserts %d (events %d), Com_insert delta %s: '
                   'not one number' % (rows, wr, ev, com))
    text = open(out, encoding='utf-8').read()
    mw = re.findall(r'^\s+write:\s+(\d+)$', text, re.M)
    mt = re.findall(r'^\s+transactions:\s+(\d+)\s', text, re.M)
    if len(mw) != 1 or len(mt) != 1:
        bad.append('bench merge printed %d write and %d transactions lines, not one each' % (len(mw), len(mt)))
    elif int(mw[0]) != wr or int(mt[0]) != ev:
        bad.append('bench merge: write %s, transactions %s; the parts sum to %d and %d' % (mw[0], mt[0], wr, ev))
    for b in bad:
        print('multihost: ' + b)
    if not bad:
        print('multihost: %d clients, %d inserts = %s rows = Com_insert delta %s; merged %s' % (n, wr, rows, com, mw[0]))
    return 1 if bad else 0


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[:1] == ['extract']:
        sys.exit(extract(a[1], a[2]))
    if a[:1] == ['k8s']:
        sys.exit(k8s(a[1], a[2], a[3]))
    if a[:1] == ['check']:
        sys.exit(check(a[1], a[2], a[3], a[4], a[5:]))
    sys.exit(__doc__)
