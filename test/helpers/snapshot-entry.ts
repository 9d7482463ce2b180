// Entry of the in-page bundle the snapshot tests and benchmark inject (see snapshot-harness.ts).
export * from '../../extension/src/content/snapshot';
export * as privacy from '../../extension/src/shared/privacy';
