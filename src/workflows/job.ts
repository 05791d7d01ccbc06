/** The multi-chapter job workflow (to be built: issue 6). */
export async function jobWorkflow(): Promise<void> {
  throw new Error('jobWorkflow is not implemented yet');
}
