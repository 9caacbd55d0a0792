// A model's invariant checker found a state the model must never reach
// (`--check-invariants`): the run stops with this error, and the command
// line reports it with exit code 3. Shared by Laminar's checker and the
// baselines'.
export class InvariantError extends Error {
  override name = "InvariantError";
}
