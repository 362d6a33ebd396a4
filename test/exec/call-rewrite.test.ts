import { describe, expect, it } from 'vitest';
import { forbiddenCallName, forbiddenCallNameOf, instanceName, prefixMethodCalls } from '../../src/exec/call-rewrite.js';

describe('prefixMethodCalls (the reference regex rewrite)', () => {
  const methods = new Map([
    ['cd', 'm_e_GorillaFileSystem_instance'],
    ['rm', 'm_e_GorillaFileSystem_instance'],
  ]);
  it('prefixes known method names followed by "(", also inside strings, dropping the space before "("', () => {
    expect(prefixMethodCalls("cd (folder='rm(x)')", methods)).toBe("m_e_GorillaFileSystem_instance.cd(folder='m_e_GorillaFileSystem_instance.rm(x)')");
    expect(prefixMethodCalls('ls(a=1)', methods)).toBe('ls(a=1)');
  });
});

describe('forbiddenCallName (the reference safety check)', () => {
  // What the reference computes: text before the first "(", then its second "."-separated part.
  const reference = (rewritten: string): string => {
    let head = rewritten.includes('(') ? rewritten.split('(')[0]! : rewritten;
    if (head.includes('.')) head = head.split('.')[1]!;
    return head;
  };
  const cases = ['inst.rm(file_name="a")', 'inst.run(x)', 'kill()', 'os.system.run(1)', 'a.b.c(1)', 'exit', 'x.quit', 'inst.cd(a="b.c(")', '.run()', 'run.(x)'];
  it.each(cases)('%s', (text) => {
    const head = reference(text);
    const forbidden = ['kill', 'exit', 'quit', 'remove', 'unlink', 'popen', 'Popen', 'run'].includes(head);
    expect(forbiddenCallName(text)).toBe(forbidden ? head : undefined);
  });
});

describe('forbiddenCallNameOf (the safety check without rewriting plain calls)', () => {
  const methods = new Map([
    ['cd', 'm_e_GorillaFileSystem_instance'],
    ['run', 'm_e_Runner_instance'],
  ]);
  const cases = [
    "cd(folder='x')", 'ls()', 'kill()', 'kill (pid=1)', 'exit', 'run(1)', 'run (1)', 'cd.run(1)', 'os.kill(1)', 'x.cd(1)',
    "quit\n(1)", 'Popen(["a"])', '  kill()', 'kill', '(run)()', 'cd(run())', 'kéll(1)', '_run(1)', 'run2(1)',
  ];
  it.each(cases)('%s: as the check of the rewritten call', (call) => {
    expect(forbiddenCallNameOf(call, methods)).toBe(forbiddenCallName(prefixMethodCalls(call, methods)));
  });
});

describe('instanceName', () => {
  it('replaces - . / : with _', () => {
    expect(instanceName('openai/gpt-4o.1', 'multi_turn_base_0', 'TwitterAPI')).toBe('openai_gpt_4o_1_multi_turn_base_0_TwitterAPI_instance');
  });
});
