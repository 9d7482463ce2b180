/** The longest workspace name, at sign-up and in the workspace's settings alike. */
export const WORKSPACE_NAME_MAX = 120;
