/* The JVM inside the host process: started on the first HIP call, entered by every call (attaching host threads as
 * they arrive and detaching them when they exit), and shut down at process exit after the program's own exit
 * handlers (its __hipUnregisterFatBinary calls included).
 *
 * Configuration (environment):
 *   JAVA_HOME          JDK 17+ whose lib/server/libjvm.so is loaded (else the `java` found on PATH)
 *   HIPSIM_CLASSPATH   class path of the Java runtime (':'-separated; "dir/" + "*" means every jar in dir)
 *   HIPSIM_HOME        hipsim checkout (class path cli/target/hipsim.jar, class-data sharing archive
 *                      cli/target/hipsim.jsa), set by bin/hipsim; without it the checkout is found from this
 *                      library's own path (hip-runtime/target/native)
 *   HIPSIM_CDS_ARCHIVE class-data sharing archive to map instead of the checkout's ("" for none)
 *   HIPSIM_JIT         quick (the default: C1 only) or full (C1, then C2 for hot code); see jit_options
 *   HIPSIM_JAVA_OPTS   extra JVM options, whitespace-separated (after hipsim's own, so they win) */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <jni.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hipsim_api.h"
#include "hipsim_bridge.h"

int hipsim_register_natives(JNIEnv* env, jclass host);

enum { STATE_NEW, STATE_RUNNING, STATE_FAILED, STATE_DOWN };

/* hipErrorNotInitialized, hipErrorDeinitialized, hipErrorUnknown, HIPRTC_ERROR_INTERNAL_ERROR. */
enum { HIP_NOT_INITIALIZED = 3, HIP_DEINITIALIZED = 4, HIP_UNKNOWN = 999, HIPRTC_INTERNAL = 11 };

#define ENTRY_CLASS "dev/hipsim/hip/jni/HipEntry"
#define HOST_CLASS "dev/hipsim/hip/jni/NativeHost"
#define MAX_JVM_OPTIONS 64
#define DRAIN_TIMEOUT_MS 2000

/* The JIT for this JVM, from HIPSIM_JIT. A program's kernels mostly run for well under a second, and on a cold JVM
 * C2 spends that time compiling, on cores the simulated GPU needs: with C1 alone the three peer-comparison kernels
 * ran 35-45% faster and a small corpus program 25-30% faster (hip-runtime/README.md, "JIT mode"). A run whose
 * kernels take more than about a second gains from C2's faster code: HIPSIM_JIT=full. Sets option[0] to the JIT
 * flag (NULL for none) and option[1] to the property that tells the interpreter which JIT compiles it (some of
 * its paths take the shape that JIT compiles best: dev.hipsim.isa.exec.JitMode); 0 with why filled in for a value
 * it does not know. */
static int jit_options(const char* option[2], char* why, size_t why_size) {
  const char* mode = getenv("HIPSIM_JIT");
  if (!mode || !*mode || strcmp(mode, "quick") == 0) {
    option[0] = "-XX:TieredStopAtLevel=1";
    option[1] = "-Dhipsim.jit=quick";
    return 1;
  }
  if (strcmp(mode, "full") == 0) {
    option[0] = NULL;
    option[1] = "-Dhipsim.jit=full";
    return 1;
  }
  snprintf(why, why_size, "HIPSIM_JIT: unknown mode '%s' (expected quick or full)", mode);
  return 0;
}

static atomic_int state = STATE_NEW;
static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;
static JavaVM* vm;
static atomic_int vm_destroyed;
static jclass entry_class;
static jmethodID dispatch_method;
static jmethodID shutdown_method;
static pthread_key_t detach_key;
static atomic_int calls_in_flight;
static __thread JNIEnv* thread_env;
static __thread int thread_calls;

static void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char* fmt, ...) {
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "hipsim: %s\n", line);
}

/* ---- growable strings ---- */

typedef struct {
  char* text;
  size_t length, capacity;
} Buffer;

static int append(Buffer* b, const char* s) {
  size_t n = strlen(s);
  if (b->length + n + 1 > b->capacity) {
    size_t cap = (b->length + n + 1) * 2;
    char* t = realloc(b->text, cap);
    if (!t) return 0;
    b->text = t;
    b->capacity = cap;
  }
  memcpy(b->text + b->length, s, n + 1);
  b->length += n;
  return 1;
}

static int is_file(const char* path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- finding the JVM ---- */

static int jvm_in(const char* home, char* out, size_t size) {
  static const char* const layouts[] = {"lib/server/libjvm.so", "jre/lib/server/libjvm.so",
                                        "jre/lib/amd64/server/libjvm.so"};
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
    if (snprintf(out, size, "%s/%s", home, layouts[i]) >= (int)size) continue; /* too long to be a path */
    if (is_file(out)) return 1;
  }
  return 0;
}

static int find_libjvm(char* out, size_t size, char* why, size_t why_size) {
  const char* home = getenv("JAVA_HOME");
  if (home && *home && jvm_in(home, out, size)) return 1;
  const char* path = getenv("PATH");
  if (path) {
    char* copy = strdup(path);
    for (char* save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
      char java[PATH_MAX], real[PATH_MAX];
      snprintf(java, sizeof java, "%s/java", *dir ? dir : ".");
      if (access(java, X_OK) != 0 || !realpath(java, real)) continue;
      char* slash = strrchr(real, '/');                  /* .../bin/java -> .../bin */
      if (slash) *slash = 0;
      slash = strrchr(real, '/');                        /* .../bin -> JDK home */
      if (slash) *slash = 0;
      if (jvm_in(real, out, size)) {
        free(copy);
        return 1;
      }
    }
    free(copy);
  }
  snprintf(why, why_size, "cannot find libjvm.so: set JAVA_HOME to a JDK 17 or later%s%s", home ? " (JAVA_HOME=" : "",
           home ? home : "");
  if (home) strncat(why, ")", why_size - strlen(why) - 1);
  return 0;
}

/* ---- the class path ---- */

static int jar_filter(const struct dirent* e) {
  size_t n = strlen(e->d_name);
  return n > 4 && strcmp(e->d_name + n - 4, ".jar") == 0;
}

/* Expands "dir/" + "*" entries (the JVM does not; only the java launcher does). */
static int expand_class_path(const char* list, Buffer* out) {
  char* copy = strdup(list);
  int ok = copy != NULL;
  for (char* save = NULL, *entry = ok ? strtok_r(copy, ":", &save) : NULL; entry && ok;
       entry = strtok_r(NULL, ":", &save)) {
    size_t n = strlen(entry);
    if (n >= 2 && strcmp(entry + n - 2, "/*") == 0) {
      entry[n - 2] = 0;
      struct dirent** names;
      int count = scandir(entry, &names, jar_filter, alphasort);
      for (int i = 0; i < count; i++) {
        ok = ok && (out->length == 0 || append(out, ":")) && append(out, entry) && append(out, "/") &&
             append(out, names[i]->d_name);
        free(names[i]);
      }
      if (count >= 0) free(names);
    } else {
      ok = (out->length == 0 || append(out, ":")) && append(out, entry);
    }
  }
  free(copy);
  return ok;
}

/* Path of this library (for messages and to find the checkout it was built in). */
static int library_path(char* out, size_t size) {
  Dl_info info;
  if (!dladdr((void*)&hipsim_call, &info) || !info.dli_fname) return 0;
  if (!realpath(info.dli_fname, out)) snprintf(out, size, "%s", info.dli_fname);
  return 1;
}

/* The hipsim checkout: HIPSIM_HOME, else four levels above this library (<home>/hip-runtime/target/native/...). */
static int hipsim_home(char* home, size_t size) {
  const char* env_home = getenv("HIPSIM_HOME");
  if (env_home && *env_home) {
    snprintf(home, size, "%s", env_home);
    return 1;
  }
  if (!library_path(home, size)) return 0;
  for (int up = 0; up < 4; up++) {
    char* slash = strrchr(home, '/');
    if (slash) *slash = 0;
  }
  return 1;
}

static int class_path(Buffer* out, char* why, size_t why_size) {
  const char* explicit_path = getenv("HIPSIM_CLASSPATH");
  if (explicit_path && *explicit_path) return expand_class_path(explicit_path, out);
  char home[PATH_MAX];
  if (!hipsim_home(home, sizeof home)) {
    snprintf(why, why_size, "cannot locate the hipsim build: set HIPSIM_HOME");
    return 0;
  }
  char jar[PATH_MAX + 64];
  snprintf(jar, sizeof jar, "%s/cli/target/hipsim.jar", home);
  if (!is_file(jar)) {
    snprintf(why, why_size, "hipsim is not built: %s is missing (run: mvn -B -q package -DskipTests)", jar);
    return 0;
  }
  return append(out, jar);
}

/*
 * The class-data sharing archive the build made (cli/target/hipsim.jsa, see cli/src/build/startup-archive.sh), or
 * HIPSIM_CDS_ARCHIVE ("" for none). The JVM checks that the archive belongs to it and to the class path, and
 * declines it otherwise: the options make that silent, since the program's stderr is not ours to write on.
 */
static int startup_archive(char* option, size_t size) {
  const char* chosen = getenv("HIPSIM_CDS_ARCHIVE");
  char path[PATH_MAX + 64];
  if (chosen) {
    if (!*chosen) return 0;
    snprintf(path, sizeof path, "%s", chosen);
  } else {
    char home[PATH_MAX];
    if (!hipsim_home(home, sizeof home)) return 0;
    snprintf(path, sizeof path, "%s/cli/target/hipsim.jsa", home);
    if (!is_file(path)) return 0;
  }
  snprintf(option, size, "-XX:SharedArchiveFile=%s", path);
  return 1;
}

/* ---- start-up ---- */

static void detach_at_thread_exit(void* value) {
  (void)value;
  if (vm && !atomic_load(&vm_destroyed)) (*vm)->DetachCurrentThread(vm);
}

/* Host threads join the JVM as daemons: the JVM never waits for them, and they leave it when they exit. */
static JNIEnv* attach_current_thread(void) {
  JNIEnv* env = NULL;
  jint rc = (*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8);
  if (rc == JNI_OK) return env;
  if (rc != JNI_EDETACHED) return NULL;
  char name[64];
  snprintf(name, sizeof name, "hip-host-%ld", (long)syscall(SYS_gettid));
  JavaVMAttachArgs args = {JNI_VERSION_1_8, name, NULL};
  if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void**)&env, &args) != JNI_OK) return NULL;
  pthread_setspecific(detach_key, vm);
  return env;
}

static int create_jvm(char* why, size_t why_size) {
  typedef jint (*GetCreatedVMs)(JavaVM**, jsize, jsize*);
  typedef jint (*CreateVM)(JavaVM**, void**, void*);
  GetCreatedVMs existing = (GetCreatedVMs)dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
  jsize count = 0;
  if (existing && existing(&vm, 1, &count) == JNI_OK && count == 1) return 1; /* the host program is a JVM */

  char jvm_path[PATH_MAX];
  if (!find_libjvm(jvm_path, sizeof jvm_path, why, why_size)) return 0;
  void* libjvm = dlopen(jvm_path, RTLD_NOW | RTLD_GLOBAL);
  CreateVM create = libjvm ? (CreateVM)dlsym(libjvm, "JNI_CreateJavaVM") : NULL;
  if (!create) {
    snprintf(why, why_size, "cannot load %s: %s", jvm_path, dlerror());
    return 0;
  }
  Buffer cp = {0};
  if (!append(&cp, "-Djava.class.path=") || !class_path(&cp, why, why_size)) {
    free(cp.text);
    return 0;
  }
  JavaVMOption options[MAX_JVM_OPTIONS];
  int n = 0;
  options[n++].optionString = cp.text;
  options[n++].optionString = "-Xrs"; /* leave SIGINT/SIGTERM/SIGQUIT to the program */
  options[n++].optionString = "-Dhipsim.embedded=true";
  /* msgpack-core otherwise reaches for sun.misc.Unsafe, which JDK 24+ warns about on the program's stderr. */
  options[n++].optionString = "-Dmsgpack.universal-buffer=true";
  char archive[PATH_MAX + 128];
  if (startup_archive(archive, sizeof archive)) {
    options[n++].optionString = archive;
    options[n++].optionString = "-Xshare:auto";
    options[n++].optionString = "-Xlog:cds=off";
    options[n++].optionString = "-Xlog:cds+dynamic=off";
  }
  const char* jit[2] = {NULL, NULL};
  if (!jit_options(jit, why, why_size)) {
    free(cp.text);
    return 0;
  }
  for (int i = 0; i < 2; i++) {
    if (jit[i]) options[n++].optionString = (char*)jit[i];
  }
  /* The interpreter generates a class per run of fused VALU instructions (gcn-isa LaneCodeGen, whose class name the
   * pattern names); its one method runs once per wave, and the JVM's usual threshold left it in the bytecode
   * interpreter for the first hundred or so waves: 30-40 ms of a cold sgemm 256 dispatch, 4-8 ms with the threshold
   * scaled down. "quiet" first: the JVM would otherwise print the command on the program's standard output. */
  /* A young generation of 128 MB. Device pages are long[]s that live as long as their buffers: with G1 sizing the
   * young generation itself (about 20 MB at first), a dispatch that touches new pages copies them in young pauses
   * inside the dispatch. Cold vadd 4M: 0.125 -> 0.108 s (four pairs), reduce 1M 0.104 -> 0.091, sgemm level; the
   * peak RSS of vadd 16M 555 -> 570 MB (256 MB: 700 MB, past twice the device memory it touches). */
  options[n++].optionString = "-Xmn128m";
  /* What survives a young pause goes to the old generation at once. Past 128 MB of allocation (vadd 16M touches
   * 192 MB of device memory) the survivors are device pages, which live as long as their buffers; copied into the
   * survivor space first, each was copied again at the next pause. vadd 16M, six sets of 6-8 runs: the young pauses
   * 12-45% shorter in all (medians 71-95 against 107-130 ms); a run with one pause instead of two more often, and
   * its peak RSS then 482 MB against 552-574 MB (about 10 MB more when both have two). */
  options[n++].optionString = "-XX:MaxTenuringThreshold=0";
  options[n++].optionString = "-XX:CompileCommand=quiet";
  /* The interpreter's code (its ops, the dispatch loop, the GPU's page tables and TLB) compiles after a tenth of the
   * usual calls. The JIT scales its thresholds up with the length of its queue, which the runtime's start keeps long
   * until the first launch: the rehearsal's few dozen executions per op left a scalar ALU family's execute or the
   * compute unit's loop in the bytecode interpreter for the first 15-25 ms of a cold dispatch. Four interleaved sets
   * of 20-25 runs: all three benchmark kernels faster in each, by 0.3-14% (reduce most); a small program's wall time
   * level. 0.03 was slower. A later command wins, so the generated runs' own, below, stays in force for them. */
  options[n++].optionString = "-XX:CompileCommand=CompileThresholdScaling,dev.hipsim.isa.interp.*::*,0.1";
  options[n++].optionString = "-XX:CompileCommand=CompileThresholdScaling,dev.hipsim.isa.exec.*::*,0.1";
  options[n++].optionString = "-XX:CompileCommand=CompileThresholdScaling,dev.hipsim.kfd.vm.*::*,0.1";
  options[n++].optionString = "-XX:CompileCommand=CompileThresholdScaling,dev.hipsim.isa.interp.FusedLanes$Run*::run,0.02";
  char* user = getenv("HIPSIM_JAVA_OPTS") ? strdup(getenv("HIPSIM_JAVA_OPTS")) : NULL;
  for (char* save = NULL, *opt = user ? strtok_r(user, " \t\n", &save) : NULL; opt && n < MAX_JVM_OPTIONS;
       opt = strtok_r(NULL, " \t\n", &save)) {
    options[n++].optionString = opt;
  }
  for (int i = 0; i < n; i++) options[i].extraInfo = NULL;
  JavaVMInitArgs args = {JNI_VERSION_1_8, n, options, JNI_FALSE};
  JNIEnv* env = NULL;
  jint rc = create(&vm, (void**)&env, &args);
  free(cp.text);
  free(user);
  if (rc != JNI_OK) {
    vm = NULL;
    snprintf(why, why_size, "JNI_CreateJavaVM failed (%d) with %s", (int)rc, jvm_path);
    return 0;
  }
  /* The creating thread is attached as a non-daemon thread; make it a daemon like every other host thread. */
  (*vm)->DetachCurrentThread(vm);
  return 1;
}

static int describe_exception(JNIEnv* env, const char* what, char* why, size_t why_size) {
  if (!(*env)->ExceptionCheck(env)) return 0;
  (*env)->ExceptionDescribe(env);
  snprintf(why, why_size, "%s failed with a Java exception (above)", what);
  return 1;
}

static int start_runtime(char* why, size_t why_size) {
  if (!create_jvm(why, why_size)) return 0;
  pthread_key_create(&detach_key, detach_at_thread_exit);
  JNIEnv* env = attach_current_thread();
  if (!env) {
    snprintf(why, why_size, "cannot attach the first HIP thread to the JVM");
    return 0;
  }
  jclass host = (*env)->FindClass(env, HOST_CLASS);
  jclass entry = host ? (*env)->FindClass(env, ENTRY_CLASS) : NULL;
  if (!host || !entry) {
    (*env)->ExceptionClear(env);
    snprintf(why, why_size, "hipsim's Java runtime (%s) is not on the class path", host ? ENTRY_CLASS : HOST_CLASS);
    return 0;
  }
  if (hipsim_register_natives(env, host) != 0) {
    if (!describe_exception(env, "RegisterNatives", why, why_size)) snprintf(why, why_size, "RegisterNatives failed");
    return 0;
  }
  entry_class = (*env)->NewGlobalRef(env, entry);
  jmethodID boot = (*env)->GetStaticMethodID(env, entry, "boot", "(JLjava/lang/String;)Ljava/lang/String;");
  dispatch_method = (*env)->GetStaticMethodID(env, entry, "dispatch", "(I[J)J");
  shutdown_method = (*env)->GetStaticMethodID(env, entry, "shutdown", "()Z");
  if (!boot || !dispatch_method || !shutdown_method) {
    (*env)->ExceptionClear(env);
    snprintf(why, why_size, "%s does not have the entry points this library expects: rebuild hipsim", ENTRY_CLASS);
    return 0;
  }
  char self[PATH_MAX] = "libamdhip64";
  library_path(self, sizeof self);
  jstring lib = (*env)->NewStringUTF(env, self);
  jstring error = (jstring)(*env)->CallStaticObjectMethod(env, entry_class, boot, (jlong)HIPSIM_API_HASH, lib);
  if (describe_exception(env, "starting the Java runtime", why, why_size)) return 0;
  if (error) {
    const char* text = (*env)->GetStringUTFChars(env, error, NULL);
    snprintf(why, why_size, "%s", text ? text : "the Java runtime failed to start");
    if (text) (*env)->ReleaseStringUTFChars(env, error, text);
    return 0;
  }
  (*env)->DeleteLocalRef(env, lib);
  return 1;
}

/* The calling thread's JNIEnv, starting the runtime on the very first call; NULL if the runtime is unavailable. */
static JNIEnv* enter_runtime(void) {
  int s = atomic_load(&state);
  if (s == STATE_NEW) {
    pthread_mutex_lock(&boot_lock);
    if (atomic_load(&state) == STATE_NEW) {
      char why[3 * PATH_MAX] = "";
      int ok = start_runtime(why, sizeof why);
      if (!ok) say("cannot start the HIP runtime: %s", why);
      atomic_store(&state, ok ? STATE_RUNNING : STATE_FAILED);
    }
    pthread_mutex_unlock(&boot_lock);
    s = atomic_load(&state);
  }
  if (s != STATE_RUNNING) return NULL;
  thread_env = attach_current_thread();
  return thread_env;
}

/* What a function returns when its Java implementation cannot be reached. */
static int64_t unavailable(int32_t id) {
  static const char message[] = "hipsim: the HIP runtime is not running";
  switch (hipsim_api_return_kinds[id]) {
    case HIPSIM_RETURNS_HIP_ERROR:
      return atomic_load(&state) == STATE_DOWN ? HIP_DEINITIALIZED : HIP_NOT_INITIALIZED;
    case HIPSIM_RETURNS_HIPRTC_RESULT:
      return HIPRTC_INTERNAL;
    case HIPSIM_RETURNS_C_STRING:
      return (int64_t)(intptr_t)message;
    default:
      return 0;
  }
}

static int64_t internal_error(int32_t id) {
  switch (hipsim_api_return_kinds[id]) {
    case HIPSIM_RETURNS_HIP_ERROR:
      return HIP_UNKNOWN;
    case HIPSIM_RETURNS_HIPRTC_RESULT:
      return HIPRTC_INTERNAL;
    default:
      return 0;
  }
}

int64_t hipsim_call(int32_t id, int64_t* slots, int32_t count) {
  JNIEnv* env = thread_env;
  if (!env || atomic_load(&state) != STATE_RUNNING) {
    env = enter_runtime();
    if (!env) return unavailable(id);
  }
  atomic_fetch_add(&calls_in_flight, 1);
  thread_calls++;
  int64_t result;
  if (atomic_load(&state) != STATE_RUNNING) { /* exit began between the check above and the increment */
    result = unavailable(id);
  } else {
    jlongArray args = (*env)->NewLongArray(env, count);
    if (!args) {
      (*env)->ExceptionClear(env);
      say("internal error in %s: no Java memory for its arguments", hipsim_api_names[id]);
      result = internal_error(id);
    } else {
      if (count > 0) (*env)->SetLongArrayRegion(env, args, 0, count, (const jlong*)slots);
      jlong r = (*env)->CallStaticLongMethod(env, entry_class, dispatch_method, (jint)id, args);
      if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        say("internal error in %s: a Java exception escaped the runtime", hipsim_api_names[id]);
        result = internal_error(id);
      } else {
        result = (int64_t)r;
      }
      (*env)->DeleteLocalRef(env, args);
    }
  }
  thread_calls--;
  atomic_fetch_sub(&calls_in_flight, 1);
  return result;
}

/* ---- shutdown ---- */

static int wait_for_other_calls(void) {
  for (int ms = 0; ms < DRAIN_TIMEOUT_MS; ms++) {
    if (atomic_load(&calls_in_flight) - thread_calls <= 0) return 1;
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
  }
  return 0;
}

/* Registered first (from this library's constructor), so it runs after every exit handler of the program. */
static void at_process_exit(void) {
  int expected = STATE_RUNNING;
  if (!atomic_compare_exchange_strong(&state, &expected, STATE_DOWN)) return;
  JNIEnv* env = attach_current_thread();
  int drained = wait_for_other_calls();
  jboolean may_destroy = JNI_FALSE;
  if (env) {
    may_destroy = (*env)->CallStaticBooleanMethod(env, entry_class, shutdown_method);
    if ((*env)->ExceptionCheck(env)) {
      (*env)->ExceptionClear(env);
      may_destroy = JNI_FALSE;
    }
  }
  fflush(stdout);
  fflush(stderr);
  /* DestroyJavaVM waits for non-daemon Java threads: only call it when the runtime says there are none, no other
   * thread is inside a HIP call, and exit was not called from inside one (a host callback). */
  int destroy = env && may_destroy && drained && thread_calls == 0;
  if (getenv("HIPSIM_DEBUG")) {
    say("exit: runtime shut down; %s the JVM (other calls drained: %s, Java non-daemon threads: %s)",
        destroy ? "destroying" : "keeping", drained ? "yes" : "no", may_destroy ? "none" : "some");
  }
  if (destroy) {
    atomic_store(&vm_destroyed, 1);
    (*vm)->DestroyJavaVM(vm);
  }
}

__attribute__((constructor)) static void hipsim_library_loaded(void) {
  atexit(at_process_exit);
}
