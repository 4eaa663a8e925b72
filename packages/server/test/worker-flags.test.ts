import { describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_FLAG, workerExecArgv } from '../src/cluster.js';

describe('the Node flags of cluster workers', () => {
  it('add the young-generation size to the flags the primary was started with', () => {
    expect(workerExecArgv(['--enable-source-maps'], '')).toEqual(['--enable-source-maps', YOUNG_GENERATION_FLAG]);
  });

  it('leave a semi-space size the operator chose, on the command line or in NODE_OPTIONS', () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], '')).toEqual(['--max-semi-space-size=8']);
    expect(workerExecArgv([], '--max_semi_space_size=64 --trace-gc')).toEqual([]);
  });
});
