#pragma once
void launchFill(int* data, int n, int base);
void launchSquare(int* data, int n);
