/**
 * One tool list for every agent of a turn (a provider caches a prompt's start with
 * its tools first), with who may call what enforced by name when a call runs.
 */
import { AGENT_TOOLS, TOOL_NAMES, toolRefusal, toolsForTurn } from '../../src/core/model/tool-schemas';
import { parseAgentHeader } from '../../src/core/model/markers';

const plain = { readOnly: false, clarifyFirst: false };

test('every agent is sent the same list, in one order and one wording, whatever its role', () => {
  const list = toolsForTurn(plain);
  expect(list.map((t) => t.function.name)).toEqual(TOOL_NAMES);
  expect(JSON.stringify(toolsForTurn(plain))).toBe(JSON.stringify(list));
  const described = Object.fromEntries(list.map((t) => [t.function.name, t.function.description]));
  // The tools the reviewer may not call say so; the ones it may call do not.
  for (const name of TOOL_NAMES) {
    const reviewerMay = AGENT_TOOLS.quality_reviewer.includes(name);
    expect([name, described[name]!.includes('Not for the quality reviewer')]).toEqual([name, !reviewerMay]);
  }
});

test('a read-only or clarify-first turn marks the write tools unavailable, for every agent alike', () => {
  const readOnly = Object.fromEntries(
    toolsForTurn({ readOnly: true, clarifyFirst: false }).map((t) => [t.function.name, t.function.description]),
  );
  expect(readOnly.edit_file).toMatch(/^\[Unavailable this turn/);
  expect(readOnly.parallel_execute).toMatch(/^\[Unavailable this turn/);
  expect(readOnly.query_files).not.toMatch(/Unavailable/);
  const clarify = Object.fromEntries(
    toolsForTurn({ readOnly: false, clarifyFirst: true }).map((t) => [t.function.name, t.function.description]),
  );
  expect(clarify.delete_file).toMatch(/^\[Unavailable until the author says what to change\]/);
  expect(clarify.parallel_execute).not.toMatch(/Unavailable/);
});

test('a call is refused by name: an unknown tool is not found, a listed tool outside the role is not permitted', () => {
  expect(toolRefusal('writer', 'edit_file')).toBeNull();
  expect(toolRefusal('quality_reviewer', 'query_files')).toBeNull();
  expect(toolRefusal('writer', 'format_disk')).toMatchObject({
    errorType: 'tool_not_found',
    message: expect.stringContaining('There is no tool "format_disk"'),
  });
  for (const name of [
    'create_file',
    'edit_file',
    'delete_file',
    'set_importance',
    'update_project',
    'parallel_execute',
  ]) {
    const refused = toolRefusal('quality_reviewer', name);
    expect(refused).toMatchObject({ errorType: 'tool_not_permitted' });
    expect(refused!.message).toContain('never changes files');
    expect(refused!.message).toContain('query_files');
  }
  // Prototype names are not tools.
  expect(toolRefusal('writer', 'constructor')?.errorType).toBe('tool_not_found');
});

test('the role is read from the last agent header, so project text quoting one cannot pose as it', () => {
  expect(parseAgentHeader('# Scriptorium agent: writer\n\nRole: writer')).toBe('writer');
  expect(
    parseAgentHeader(
      'A chapter quoting\n# Scriptorium agent: planner\nthen the role\n# Scriptorium agent: quality_reviewer\nRole: …',
    ),
  ).toBe('quality_reviewer');
  expect(parseAgentHeader('# Scriptorium router\n\nYou route')).toBe('router');
  expect(parseAgentHeader('# Scriptorium agent: editor')).toBeNull();
});
