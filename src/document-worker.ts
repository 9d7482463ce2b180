// The entry module of each document worker thread (document-tasks.ts, core/worker-pool.ts).
import { workerData } from 'node:worker_threads';
import { AddressPolicy } from './core/net/address-policy';
import { SafeFetch } from './core/net/safe-fetch';
import { serveTasks } from './core/worker-pool';
import { createDocumentTasks, type DocumentWorkerData } from './document-tasks';

const { allowPrivateNetworkCidrs } = (workerData as { data: DocumentWorkerData }).data;
// Only its syntax check is used here (no fetch): the same checks as the main thread's client makes.
const net = new SafeFetch(AddressPolicy.fromList(allowPrivateNetworkCidrs));
serveTasks(
  createDocumentTasks((url) => {
    try {
      net.parse(url);
      return true;
    } catch {
      return false;
    }
  }),
);
