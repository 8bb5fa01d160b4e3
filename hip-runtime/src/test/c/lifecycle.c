/* How the JVM inside a HIP program comes and goes. One scenario per run (argv[1]); each prints what it observed on
 * stdout and exits with a scenario-specific status. Run by dev.hipsim.hip.nativelib.LifecycleTest with a timeout:
 * the point is that none of them hangs or crashes. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int hipError_t;
hipError_t hipGetDeviceCount(int* count);
typedef void* hipGraph_t;
hipError_t hipGraphCreate(hipGraph_t* graph, unsigned int flags);
const char* hipGetErrorString(hipError_t error);

static sem_t worker_called;

static void* parked_worker(void* arg) {
  (void)arg;
  int n = 0;
  hipError_t rc = hipGetDeviceCount(&n);
  printf("worker: hipGetDeviceCount -> %d, %d\n", rc, n);
  fflush(stdout);
  sem_post(&worker_called);
  for (;;) pause();
  return NULL;
}

static void* exiting_worker(void* arg) {
  (void)arg;
  int n = 0;
  hipGetDeviceCount(&n);
  usleep(200 * 1000);
  printf("worker: exit(3) while main keeps calling HIP\n");
  exit(3);
  return NULL;
}

/* Registered before the first HIP call (so before the JVM exists). */
static void early_handler(void) {
  int n = 0;
  printf("early handler: hipGetDeviceCount -> %d\n", hipGetDeviceCount(&n));
}

/* Registered after the first HIP call, as __hip_module_ctor registers __hip_module_dtor: the runtime still runs. */
static void module_dtor_like(void) {
  int n = 0;
  hipError_t rc = hipGetDeviceCount(&n);
  printf("dtor-like handler: hipGetDeviceCount -> %d, %d\n", rc, n);
}

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (strcmp(scenario, "worker-starts-jvm") == 0) {
    /* The JVM starts on a thread that never returns; main exits. */
    pthread_t t;
    sem_init(&worker_called, 0, 0);
    pthread_create(&t, NULL, parked_worker, NULL);
    sem_wait(&worker_called);
    printf("main: returning 0\n");
    return 0;
  }
  if (strcmp(scenario, "exit-from-thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, exiting_worker, NULL);
    hipGraph_t g;
    for (;;) hipGraphCreate(&g, 0);
  }
  if (strcmp(scenario, "exit-handlers") == 0) {
    atexit(early_handler);
    int n = 0;
    printf("main: hipGetDeviceCount -> %d\n", hipGetDeviceCount(&n));
    atexit(module_dtor_like);
    return 5;
  }
  if (strcmp(scenario, "no-runtime") == 0) {
    /* Run with a class path / JAVA_HOME that cannot work: every call fails cleanly. */
    int n = 0;
    printf("hipGetDeviceCount -> %d\n", hipGetDeviceCount(&n));
    printf("hipGetDeviceCount -> %d\n", hipGetDeviceCount(&n));
    printf("hipGetErrorString -> %s\n", hipGetErrorString(1));
    return 7;
  }
  fprintf(stderr, "unknown scenario '%s'\n", scenario);
  return 2;
}
