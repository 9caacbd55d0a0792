// The first internal inconsistency of a run (a kernel's refusal where the
// model's state says it cannot happen): recorded, and the run call returns
// it instead of going on (the host reports it as an error).
export let faultCode: i32 = 0;

export function fault(code: i32): void {
  if (faultCode == 0) faultCode = code == 0 ? -1 : code;
}

export function clearFault(): void {
  faultCode = 0;
}
