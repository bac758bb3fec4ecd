/*===- fake_dependency.c - A library a fake artifact needs ----------------===*\
|*                                                                            *|
|* Linked by the FAKE_NEEDS_MISSING_LIBRARY artifact (fake_artifact.c) and    *|
|* kept out of the dynamic loader's reach, so the runtime's message for a     *|
|* missing dependency can be tested.                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

int plaidml_fake_dependency(void) { return 0; }
