#ifndef AA_ALSA_SHIM_H
#define AA_ALSA_SHIM_H

/* alsa-lib prints its errors to stderr by itself; the siren reports them as a named fault
   instead. The handler is variadic, which Swift cannot define: hence this one function. */
void aa_alsa_silence_errors(void);

#endif
