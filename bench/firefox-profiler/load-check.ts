// Run by load-check.sh (see there): the Firefox Profiler loads a perfj export and derives its call-tree tables.
import { unserializeProfileOfArbitraryFormat } from './src/profile-logic/process-profile';
import {
  computeFrameTableFromRawFrameTable,
  computeStackTableFromRawStackTable,
  computeSamplesTableFromRawSamplesTable,
} from './src/profile-logic/profile-data';
import { computeReferenceCPUDeltaPerMs } from './src/profile-logic/cpu';
import * as fs from 'fs';
import * as zlib from 'zlib';

async function main() {
  let bytes = fs.readFileSync(process.argv[2]);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
  const profile: any = await unserializeProfileOfArbitraryFormat(bytes.toString('utf8'));
  const shared = profile.shared;
  const frameTable = computeFrameTableFromRawFrameTable(shared.frameTable);
  const defaultCategory = profile.meta.categories.findIndex((c: any) => c.color === 'grey');
  const stackTable: any = computeStackTableFromRawStackTable(shared.stackTable, frameTable, profile.meta.categories, defaultCategory);
  const ref = computeReferenceCPUDeltaPerMs(profile);
  const self = new Map<string, number>();
  let samples = 0;
  let meanCpuPercentMax = 0;
  for (const thread of profile.threads) {
    const s: any = computeSamplesTableFromRawSamplesTable(thread.samples, stackTable, profile.meta.sampleUnits, ref, defaultCategory);
    samples += s.length;
    if (s.hasCPUDeltas) { let sum = 0; for (let i = 0; i < s.length; i++) sum += s.threadCPUPercent[i]; meanCpuPercentMax = Math.max(meanCpuPercentMax, Math.round(sum / s.length)); }
    for (let i = 0; i < s.length; i++) {
      const st = s.stack[i];
      if (st === null) continue;
      const func = frameTable.func[stackTable.frame[st]];
      const name = shared.stringArray[shared.funcTable.name[func]];
      self.set(name, (self.get(name) || 0) + 1);
    }
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  console.log(JSON.stringify({ version: profile.meta.preprocessedProfileVersion, threads: profile.threads.length,
    stacks: stackTable.length, frames: frameTable.length, samples, meanCpuPercentMax, top }));
}
main().catch((e) => { console.error('FAILED', e); process.exit(1); });
